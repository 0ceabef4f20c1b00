/**
 * The canonical write form of dependency entries (tasknotes-spec §10.2.2, §11.6) and the
 * normalization of a legacy `blockedBy` list (§8.7): uids are written as the wikilink
 * `[[target]]`, a missing or unknown reltype becomes the default.
 */
import {
  DEFAULT_RELTYPE,
  isReltype,
  normalizeDependencyUid,
  type DependencyEntry,
  type DependencyReltype,
} from './entry.js';

function reltypeOf(value: unknown, fallback: DependencyReltype): DependencyReltype {
  const upper = typeof value === 'string' ? value.trim().toUpperCase() : '';
  return isReltype(upper) ? upper : fallback;
}

/**
 * One entry in its canonical write form: the uid as the wikilink `[[target]]` (no alias, anchor or
 * `.md`), the reltype upper-cased (the default when missing or unknown), a non-blank gap. Null
 * when the entry has no usable uid. A plain string is a uid with the default reltype.
 */
export function canonicalDependency(
  entry: unknown,
  fallback: DependencyReltype = DEFAULT_RELTYPE,
): DependencyEntry | null {
  const fields: Record<string, unknown> =
    typeof entry === 'string'
      ? { uid: entry }
      : entry !== null && typeof entry === 'object' && !Array.isArray(entry)
        ? (entry as Record<string, unknown>)
        : {};
  const { uid, reltype, gap } = fields;
  const key = typeof uid === 'string' ? normalizeDependencyUid(uid) : null;
  if (key === null) return null;
  const written = typeof reltype === 'string' && reltype.trim() !== '' ? reltype.trim().toUpperCase() : '';
  const normalized: DependencyEntry = {
    uid: `[[${key}]]`,
    reltype: (written === '' ? fallback : written) as DependencyReltype,
  };
  if (typeof gap === 'string' && gap.trim() !== '') normalized.gap = gap.trim();
  return normalized;
}

/**
 * A legacy list normalized (migration): every entry in canonical form, entries without a usable
 * uid dropped, and of several entries with the same normalized uid only the first kept.
 */
export function normalizeDependencyList(
  entries: readonly unknown[],
  defaultReltype: string = DEFAULT_RELTYPE,
): DependencyEntry[] {
  const fallback = reltypeOf(defaultReltype, DEFAULT_RELTYPE);
  const seen = new Set<string>();
  const out: DependencyEntry[] = [];
  for (const entry of entries) {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) continue;
    const normalized = canonicalDependency(entry, fallback);
    if (normalized === null || seen.has(normalized.uid)) continue;
    // Migration also replaces a reltype it does not know by the default.
    normalized.reltype = reltypeOf(normalized.reltype, fallback);
    seen.add(normalized.uid);
    out.push(normalized);
  }
  return out;
}
