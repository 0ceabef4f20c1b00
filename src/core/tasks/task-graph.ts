/**
 * Read shapes of indexed tasks: normalised frontmatter plus the computed fields `id`,
 * `totalTrackedTime`, `isBlocked`, `isBlocking` and `blocking` (reference tasks.md §1.5).
 *
 * Two derived structures make that cheap on large vaults: the link index (paths by lower-cased
 * path and basename) only changes when the set of task paths changes, and the reverse dependency
 * map only needs the tasks that have `blockedBy`. Both are rebuilt lazily by the service.
 */
import type { TaskInfo, TimeEntry } from './task-info.js';
import { isCompletedStatus, stripLinkSyntax, type DependencyValue } from './field-mapping.js';
import type { StatusConfig } from './tasknotes-settings.js';

/** A task's normalised fields, without the computed ones. */
export type TaskBase = Record<string, unknown> & { path: string; status: string; title: string };

export function totalTrackedMinutes(entries: unknown): number {
  if (!Array.isArray(entries)) return 0;
  let total = 0;
  for (const entry of entries as TimeEntry[]) {
    if (!entry || typeof entry.startTime !== 'string' || typeof entry.endTime !== 'string') continue;
    const ms = Date.parse(entry.endTime) - Date.parse(entry.startTime);
    if (Number.isFinite(ms) && ms > 0) total += Math.round(ms / 60000);
  }
  return total;
}

/** `a/b/c.md` → `a/b`, `c.md` → `''` (without splitting: it runs for every dependency resolved). */
export const folderOf = (rel: string): string => {
  const slash = rel.lastIndexOf('/');
  return slash < 0 ? '' : rel.slice(0, slash);
};
const basenameOf = (rel: string): string => (rel.split('/').pop() ?? rel).replace(/\.md$/i, '');

function shortest(paths: readonly string[]): string | undefined {
  return [...paths].sort((a, b) => a.length - b.length || (a < b ? -1 : 1))[0];
}

/** Resolves links to task paths, Obsidian style. */
export class LinkIndex {
  private readonly byLowerPath = new Map<string, string>();
  private readonly byBasename = new Map<string, string[]>();

  constructor(paths: Iterable<string>) {
    for (const p of paths) {
      const lower = p.toLowerCase();
      this.byLowerPath.set(lower, p);
      // basenameOf(p).toLowerCase(), without splitting every path of a large vault.
      const name = lower.slice(lower.lastIndexOf('/') + 1);
      const key = name.endsWith('.md') ? name.slice(0, -3) : name;
      const list = this.byBasename.get(key);
      if (list) list.push(p);
      else this.byBasename.set(key, [p]);
    }
  }

  /**
   * `[[Name]]`, `[[Folder/Name|alias]]`, `[t](path.md)`, `Name` or a path → a task path: an exact
   * path first (also relative to the linking note's folder), then a basename match preferring the
   * linking note's folder, then the shortest path.
   */
  resolve(link: string, fromPath?: string): string | undefined {
    const target = stripLinkSyntax(link).replace(/^\/+/, '');
    if (target === '') return undefined;
    const withExt = /\.md$/i.test(target) ? target : `${target}.md`;
    const exact = this.byLowerPath.get(withExt.toLowerCase());
    if (exact) return exact;
    if (fromPath) {
      const folder = folderOf(fromPath);
      const relative = folder === '' ? undefined : this.byLowerPath.get(`${folder}/${withExt}`.toLowerCase());
      if (relative) return relative;
    }
    if (target.includes('/')) {
      const suffix = `/${withExt.toLowerCase()}`;
      const hits = [...this.byLowerPath.entries()]
        .filter(([lower]) => lower.endsWith(suffix))
        .map(([, p]) => p);
      return shortest(hits);
    }
    const candidates = this.byBasename.get(basenameOf(withExt).toLowerCase()) ?? [];
    if (candidates.length <= 1) return candidates[0];
    const sameFolder = fromPath ? candidates.find((c) => folderOf(c) === folderOf(fromPath)) : undefined;
    return sameFolder ?? shortest(candidates);
  }
}

/** Computes the read shape of tasks given the link index and every task's base. */
export class TaskGraph {
  /** Task path → paths of tasks whose blockedBy resolves to it. */
  private readonly dependents = new Map<string, string[]>();

  constructor(
    readonly links: LinkIndex,
    tasks: Iterable<TaskBase>,
    private readonly lookup: (path: string) => TaskBase | undefined,
    private readonly statuses: readonly StatusConfig[],
  ) {
    for (const task of tasks) {
      const deps = task.blockedBy as DependencyValue[] | undefined;
      if (!deps) continue;
      for (const dep of deps) {
        const target = links.resolve(dep.uid, task.path);
        if (!target || target === task.path) continue;
        const list = this.dependents.get(target);
        if (list) list.push(task.path);
        else this.dependents.set(target, [task.path]);
      }
    }
  }

  /** The read shape (no details) of one task. */
  view(base: TaskBase): TaskInfo {
    const isBlocked = ((base.blockedBy as DependencyValue[] | undefined) ?? []).some((dep) => {
      const target = this.links.resolve(dep.uid, base.path);
      const blocker = target && target !== base.path ? this.lookup(target) : undefined;
      return blocker !== undefined && !isCompletedStatus(blocker.status, this.statuses);
    });
    const blocking = isCompletedStatus(base.status, this.statuses)
      ? []
      : (this.dependents.get(base.path) ?? []);
    const task: Record<string, unknown> = {
      ...base,
      id: base.path,
      totalTrackedTime: totalTrackedMinutes(base.timeEntries),
      isBlocked,
      isBlocking: blocking.length > 0,
    };
    if (blocking.length > 0) task.blocking = [...blocking];
    return task as TaskInfo;
  }
}
