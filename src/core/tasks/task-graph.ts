/**
 * Read shapes of indexed tasks: normalised frontmatter plus the computed fields `id`,
 * `totalTrackedTime`, `isBlocked`, `isBlocking` and `blocking` (as in the TaskNotes plugin).
 *
 * Two derived structures make that cheap on large vaults: the link index (paths by lower-cased
 * path and basename) only changes when the set of task paths changes, and the reverse dependency
 * map only needs the tasks that have `blockedBy`. Both are rebuilt lazily by the service.
 */
import type { TaskInfo, TimeEntry } from './task-info.js';
import type { LinkIndex } from '../links/link-index.js';
import { DEFAULT_DEPENDENCY_POLICY, missingTargetOutcome } from '../dependencies/blocking.js';
import { isCompletedStatus } from './field-mapping.js';
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

/** A task's dependency links as written (`blockedBy` uids), for the graph. */
export interface DependencyLinks {
  path: string;
  uids: readonly string[];
}

/**
 * Computes the read shape of tasks given the link index and every task's base: `isBlocked` as
 * tasknotes-spec §10.2.5 defines it (a dependency on a task that is not completed blocks; so does
 * one on a task that cannot be found, the spec's default), and the reverse `blocking` list.
 */
export class TaskGraph {
  /** Task path → paths of tasks whose blockedBy resolves to it. */
  private readonly dependents = new Map<string, string[]>();
  private readonly missingBlocks = missingTargetOutcome(DEFAULT_DEPENDENCY_POLICY, false).blocked;

  constructor(
    readonly links: LinkIndex,
    tasks: Iterable<DependencyLinks>,
    private readonly lookup: (path: string) => TaskBase | undefined,
    private readonly statuses: readonly StatusConfig[],
  ) {
    for (const task of tasks) {
      for (const uid of task.uids) {
        const target = links.resolve(uid, task.path);
        if (!target || target === task.path) continue;
        const list = this.dependents.get(target);
        if (list) list.push(task.path);
        else this.dependents.set(target, [task.path]);
      }
    }
  }

  /** The read shape (no details) of one task whose `blockedBy` uids are `uids`. */
  view(base: TaskBase, uids: readonly string[]): TaskInfo {
    const isBlocked = uids.some((uid) => {
      const target = this.links.resolve(uid, base.path);
      // A dependency on itself is a validation error, not a block.
      if (target === base.path) return false;
      const blocker = target === undefined ? undefined : this.lookup(target);
      if (blocker === undefined) return this.missingBlocks;
      return !isCompletedStatus(blocker.status, this.statuses);
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
