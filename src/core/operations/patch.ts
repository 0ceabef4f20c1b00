/**
 * Patch semantics of task updates (tasknotes-spec §5.4): only the keys in the patch change, every
 * other key — known roles and unknown fields alike — is kept as it was, with its original
 * date/datetime granularity. Values compare structurally, so re-sending the current value is not
 * a change (and does not bump `dateModified`).
 */
import { isDeepStrictEqual } from 'node:util';

export type Frontmatter = Record<string, unknown>;

/** Keys whose patched value differs from the current one. */
export function changedKeys(original: Frontmatter, patch: Frontmatter): string[] {
  return Object.keys(patch).filter(
    (key) => !(Object.hasOwn(original, key) && isDeepStrictEqual(original[key], patch[key])),
  );
}

export function applyPatch(
  original: Frontmatter,
  patch: Frontmatter,
): { frontmatter: Frontmatter; changed: boolean } {
  return { frontmatter: { ...original, ...patch }, changed: changedKeys(original, patch).length > 0 };
}

/**
 * Commits a patch through `persist`; if persisting fails the stored state is still the original
 * (writes are all-or-nothing, §5.2) and the failure is reported instead of thrown.
 */
export async function commitPatch(
  original: Frontmatter,
  patch: Frontmatter,
  persist: (next: Frontmatter) => Promise<void>,
): Promise<{ committed: boolean; persisted: Frontmatter; error?: string }> {
  const next = { ...original, ...patch };
  try {
    await persist(next);
    return { committed: true, persisted: next };
  } catch (error) {
    return {
      committed: false,
      persisted: original,
      error: error instanceof Error ? error.message : String(error),
    };
  }
}
