/**
 * Project and dependency links as the filter sees them: `[[Target|alias]]`, `[[Target#heading]]`,
 * `[text](path.md)` or plain text. The vault's own resolver is preferred (injected through
 * QueryEnv); the fallback here resolves against the task list by path, then by basename, which
 * is Obsidian's rule for the unambiguous case.
 */
import type { TaskInfo } from '../tasks/task-info.js';

export interface ParsedLink {
  /** Link target without brackets, alias or heading (a decoded path for markdown links). */
  target: string;
  alias?: string;
  /** True for wikilinks and markdown links; false for plain text. */
  isLink: boolean;
}

const WIKI_RE = /^\[\[([^\]|#]*)(?:#[^\]|]*)?(?:\|([^\]]*))?\]\]$/;
const MD_RE = /^\[([^\]]*)\]\(([^)]+)\)$/;

export function parseLink(raw: string): ParsedLink {
  const text = raw.trim();
  const wiki = WIKI_RE.exec(text);
  if (wiki) {
    const alias = wiki[2]?.trim();
    return { target: (wiki[1] ?? '').trim(), isLink: true, ...(alias ? { alias } : {}) };
  }
  const md = MD_RE.exec(text);
  if (md) {
    let target = md[2] ?? '';
    try {
      target = decodeURIComponent(target);
    } catch {
      // A malformed escape is kept literally: the link then simply resolves to nothing.
    }
    const alias = md[1]?.trim();
    return { target: target.trim(), isLink: true, ...(alias ? { alias } : {}) };
  }
  return { target: text, isLink: false };
}

export const withoutMd = (p: string): string => (p.toLowerCase().endsWith('.md') ? p.slice(0, -3) : p);
export const basename = (p: string): string => withoutMd(p.slice(p.lastIndexOf('/') + 1));

/** A resolver over the task list: exact path (with or without `.md`), then unique basename. */
export function taskListResolver(tasks: readonly TaskInfo[]): (link: string) => string | undefined {
  const byPath = new Map<string, string>();
  const byBase = new Map<string, string | null>();
  for (const task of tasks) {
    byPath.set(withoutMd(task.path).toLowerCase(), task.path);
    const base = basename(task.path).toLowerCase();
    // null marks an ambiguous basename: Obsidian would need the folder to decide.
    byBase.set(base, byBase.has(base) ? null : task.path);
  }
  return (link) => {
    const target = withoutMd(parseLink(link).target).toLowerCase();
    if (target === '') return undefined;
    return byPath.get(target) ?? byBase.get(target) ?? undefined;
  };
}
