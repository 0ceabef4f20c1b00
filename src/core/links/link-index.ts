/**
 * The host side of link resolution: which notes exist, found by path or by file name without a
 * scan. Resolution itself is the spec resolver (resolve.ts).
 */
import { decodeTarget, parseLinkValue } from './parse.js';
import { normalizeInside, resolveLink } from './resolve.js';

/** What a link resolves to: a note's path, or the spec issue code of why it resolves to none. */
export type LinkOutcome = { path: string } | { issue: string };

/** `a/b/c.md` → `a/b`, `c.md` → `''` (without splitting: it runs for every link resolved). */
const folderOf = (rel: string): string => {
  const slash = rel.lastIndexOf('/');
  return slash < 0 ? '' : rel.slice(0, slash);
};

/**
 * The lower-cased file name without `.md`: what a simple link name is looked up by, and what
 * every lookup of a path depends on (`a/B.md` and `a/b` both give `b`).
 */
export function nameKeyOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  return name.endsWith('.md') ? name.slice(0, -3) : name;
}

/** A resolved link value and the name keys of the notes whose presence decided it. */
export interface Resolution {
  target: string | undefined;
  /** Why `target` is undefined: the spec issue code (`ambiguous_link`, `unresolved_link_target`, …). */
  issue?: string;
  keys: readonly string[];
}

/**
 * Resolves link values to the paths of a set of notes (the task notes, for the server). Every link
 * is resolved as tasknotes-spec §11 says: a simple name that several notes share resolves to
 * nothing (`ambiguous_link`), never to a guess. Paths compare without regard to case, as in
 * Obsidian. Results are memoised per linking folder, so a dependency graph or a project filter
 * resolves each distinct link once.
 *
 * The set of notes changes in place (`add`, `remove`), which forgets only the memoised results
 * that the change can alter: those whose lookup looked for a note of the same name key. On a
 * 100,000-note vault a note created or deleted costs microseconds here instead of a rebuild.
 */
export class LinkIndex {
  /**
   * Name key → the notes of that name, in the order they were added. The only index: a path in
   * any case is found among the notes of its name (see existing), which a second map by
   * lower-cased path made twice as costly to build (100,000 paths: 225 → 110 ms, Node 20.20).
   */
  private readonly byName = new Map<string, string[]>();
  private readonly memo = new Map<string, Resolution>();
  /** Name key → memo keys of the results that depend on it. */
  private readonly memoByName = new Map<string, Set<string>>();

  constructor(paths: Iterable<string>) {
    for (const p of paths) this.insert(p);
  }

  /** Adds a note (no-op when present). */
  add(path: string): void {
    if (this.byName.get(nameKeyOf(path))?.includes(path)) return;
    this.insert(path);
    this.forget(nameKeyOf(path));
  }

  /** The notes at `path` in any letter case: one name to a link, which ignores case as Obsidian does. */
  sameIgnoringCase(path: string): string[] {
    const lower = path.toLowerCase();
    return (this.byName.get(nameKeyOf(path)) ?? []).filter((note) => note.toLowerCase() === lower);
  }

  /** Removes a note (no-op when absent). */
  remove(path: string): void {
    const key = nameKeyOf(path);
    const list = this.byName.get(key);
    const at = list?.indexOf(path) ?? -1;
    if (!list || at < 0) return;
    list.splice(at, 1);
    if (list.length === 0) this.byName.delete(key);
    this.forget(key);
  }

  /**
   * The note that a link value written in the note at `fromPath` names: `[[Name]]`,
   * `[[Folder/Name|alias]]`, `[t](path.md)`, a path or a bare name. Undefined when it names no
   * note, several notes, or is not a link.
   */
  resolve(value: string, fromPath = ''): string | undefined {
    return this.resolution(value, fromPath).target;
  }

  /** Like `resolve`, with the spec issue code of a link that resolves to nothing. */
  outcome(value: string, fromPath = ''): LinkOutcome {
    const { target, issue } = this.resolution(value, fromPath);
    return target !== undefined ? { path: target } : { issue: issue ?? 'unresolved_link_target' };
  }

  /** `resolve` with the name keys it depends on: adding or removing a note of another name cannot change it. */
  resolution(value: string, fromPath = ''): Resolution {
    const memoKey = `${folderOf(fromPath)}\u0000${value}`;
    let found = this.memo.get(memoKey);
    if (found === undefined) {
      const keys: string[] = [];
      const outcome = this.lookup(value, fromPath, keys);
      found =
        'path' in outcome
          ? { target: outcome.path, keys }
          : { target: undefined, issue: outcome.issue, keys };
      this.memo.set(memoKey, found);
      for (const key of keys) {
        let set = this.memoByName.get(key);
        if (!set) this.memoByName.set(key, (set = new Set()));
        set.add(memoKey);
      }
    }
    return found;
  }

  private insert(path: string): void {
    const key = nameKeyOf(path);
    const list = this.byName.get(key);
    if (list) list.push(path);
    else this.byName.set(key, [path]);
  }

  /** Drops the memoised results that depend on notes named `key`. */
  private forget(key: string): void {
    const memoKeys = this.memoByName.get(key);
    if (!memoKeys) return;
    this.memoByName.delete(key);
    for (const memoKey of memoKeys) {
      const entry = this.memo.get(memoKey);
      this.memo.delete(memoKey);
      for (const other of entry?.keys ?? []) if (other !== key) this.memoByName.get(other)?.delete(memoKey);
    }
  }

  /** Resolves `value`; pushes onto `keys` the name key of every note looked for. */
  private lookup(value: string, fromPath: string, keys: string[]): LinkOutcome {
    const link = parseLinkValue(value);
    if (!link) return { issue: 'invalid_link_format' };
    const simple = link.format === 'wikilink' && !link.is_relative && !link.target.includes('/');
    let candidates: string[] = [];
    if (simple) {
      const key = nameKeyOf(link.target);
      keys.push(key);
      candidates = this.byName.get(key) ?? [];
    }
    let path: string;
    try {
      path = resolveLink(link, { sourcePath: fromPath, candidates });
    } catch (error) {
      const code = /^[a-z_]+/.exec((error as Error).message)?.[0];
      return {
        issue: code === 'ambiguous_link' || code === 'path_traversal' ? code : 'unresolved_link_target',
      };
    }
    const found = this.existing(path, keys);
    if (found !== undefined) return { path: found };
    if (link.format !== 'wikilink' && !link.is_relative) {
      // A markdown link or path that is not relative to the note may be written from the vault's
      // root, the form links are written in when markdown links are configured.
      try {
        const fromRoot = this.existing(
          normalizeInside(link.format === 'markdown' ? decodeTarget(link.target) : link.target),
          keys,
        );
        if (fromRoot !== undefined) return { path: fromRoot };
      } catch {
        // Leaves the vault from the root too: nothing there.
      }
    }
    return { issue: 'unresolved_link_target' };
  }

  /**
   * The task at a resolved path (with `.md` added when it has no extension), any case: among the
   * notes of its name key (which `.md` does not change), the last one added with that path in
   * lower case (notes that differ only in case can exist on a case-sensitive file system).
   */
  private existing(path: string, keys: string[]): string | undefined {
    const lower = path.toLowerCase();
    const key = nameKeyOf(lower);
    keys.push(key);
    const notes = this.byName.get(key);
    if (!notes) return undefined;
    const withMd = /\.[a-z0-9]+$/.test(lower) ? undefined : `${lower}.md`;
    return (
      notes.findLast((p) => p.toLowerCase() === lower) ??
      (withMd === undefined ? undefined : notes.findLast((p) => p.toLowerCase() === withMd))
    );
  }
}
