/**
 * The host side of link resolution: which notes exist, found by path or by file name without a
 * scan. Resolution itself is the spec resolver (resolve.ts).
 */
import { decodeTarget, parseLinkValue } from './parse.js';
import { normalizeInside, resolveLink } from './resolve.js';

/** `a/b/c.md` → `a/b`, `c.md` → `''` (without splitting: it runs for every link resolved). */
const folderOf = (rel: string): string => {
  const slash = rel.lastIndexOf('/');
  return slash < 0 ? '' : rel.slice(0, slash);
};

/**
 * Resolves link values to the paths of a set of notes (the task notes, for the server). Every link
 * is resolved as tasknotes-spec §11 says: a simple name that several notes share resolves to
 * nothing (`ambiguous_link`), never to a guess. Paths compare without regard to case, as in
 * Obsidian. Results are memoised per linking folder for the index's life (the server rebuilds it
 * when the set of task paths changes), so a dependency graph or a project filter resolves each
 * distinct link once.
 */
export class LinkIndex {
  private readonly byLowerPath = new Map<string, string>();
  private readonly byName = new Map<string, string[]>();
  private readonly memo = new Map<string, string | undefined>();

  constructor(paths: Iterable<string>) {
    for (const p of paths) {
      const lower = p.toLowerCase();
      this.byLowerPath.set(lower, p);
      // The lower-cased file name without `.md`, without splitting every path of a large vault.
      const name = lower.slice(lower.lastIndexOf('/') + 1);
      const key = name.endsWith('.md') ? name.slice(0, -3) : name;
      const list = this.byName.get(key);
      if (list) list.push(p);
      else this.byName.set(key, [p]);
    }
  }

  /**
   * The task that a link value written in the note at `fromPath` names: `[[Name]]`,
   * `[[Folder/Name|alias]]`, `[t](path.md)`, a path or a bare name. Undefined when it names no
   * task, several tasks, or is not a link.
   */
  resolve(value: string, fromPath = ''): string | undefined {
    const key = `${folderOf(fromPath)}\u0000${value}`;
    if (this.memo.has(key)) return this.memo.get(key);
    const resolved = this.lookup(value, fromPath);
    this.memo.set(key, resolved);
    return resolved;
  }

  private lookup(value: string, fromPath: string): string | undefined {
    const link = parseLinkValue(value);
    if (!link) return undefined;
    const simple = link.format === 'wikilink' && !link.is_relative && !link.target.includes('/');
    const candidates = simple ? (this.byName.get(link.target.toLowerCase().replace(/\.md$/, '')) ?? []) : [];
    let path: string;
    try {
      path = resolveLink(link, { sourcePath: fromPath, candidates });
    } catch {
      return undefined;
    }
    const found = this.existing(path);
    if (found !== undefined || link.format === 'wikilink' || link.is_relative) return found;
    // A markdown link or path that is not relative to the note may be written from the vault's
    // root, the form links are written in when markdown links are configured.
    try {
      return this.existing(
        normalizeInside(link.format === 'markdown' ? decodeTarget(link.target) : link.target),
      );
    } catch {
      return undefined;
    }
  }

  /** The task at a resolved path (with `.md` added when it has no extension), any case. */
  private existing(path: string): string | undefined {
    const lower = path.toLowerCase();
    return (
      this.byLowerPath.get(lower) ??
      (/\.[a-z0-9]+$/.test(lower) ? undefined : this.byLowerPath.get(`${lower}.md`))
    );
  }
}
