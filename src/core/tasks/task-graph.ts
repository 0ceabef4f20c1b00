/**
 * Read shapes of indexed tasks: normalised frontmatter plus the computed fields `id`,
 * `totalTrackedTime`, `isBlocked`, `isBlocking` and `blocking` (as in the TaskNotes plugin).
 *
 * The dependency graph behind the computed fields is kept up to date change by change rather than
 * rebuilt: a note added or removed re-resolves only the dependency links whose lookup looked for a
 * note of that name (see LinkIndex), and every change reports which other tasks' computed fields it
 * may have changed, so only their read shapes are built again. On the 100,000-task scale bench
 * (docs/performance.md) a burst of 5,000 new notes cost a rebuild of the link index and the graph
 * per note before.
 */
import type { TaskInfo, TimeEntry } from './task-info.js';
import { MAPPED_FIELDS } from './task-fields.js';
import { LinkIndex, nameKeyOf } from '../links/link-index.js';
import { DEFAULT_DEPENDENCY_POLICY, missingTargetOutcome } from '../dependencies/blocking.js';

/**
 * Every read shape starts as a copy of this object (newViewShape), so all of them have the same
 * keys in the same order (a field a note lacks is present as undefined, which JSON leaves out) and
 * V8 gives them one hidden class: the query filter's property reads stay monomorphic. Keys a note
 * adds beyond these (user fields, customProperties) follow, in the note's order. Measured on the
 * scale bench with shared-views.ts (docs/performance.md, "Queries"): a broad query over 100,000
 * tasks 15.4 -> 9.7 ms of CPU; the cost is the empty slots, 16-19 MB there.
 */
const VIEW_TEMPLATE: Readonly<Record<string, undefined>> = Object.fromEntries(
  [
    ...new Set([
      'path',
      'title',
      'status',
      'priority',
      ...MAPPED_FIELDS.map((field) => field.prop),
      'contexts',
      'projects',
      'tags',
      'archived',
      'id',
      'totalTrackedTime',
      'isBlocked',
      'isBlocking',
      'blocking',
    ]),
  ].map((key) => [key, undefined]),
);

/**
 * A new read shape, every key undefined: normalizeFrontmatter fills in the note's fields, then
 * TaskGraph.view the computed ones. Filled in place rather than copied from a separate object of
 * normalised fields, which made the first query after a start (every read shape built) about a
 * tenth slower (docs/performance.md).
 */
export const newViewShape = (): Record<string, unknown> => ({ ...VIEW_TEMPLATE });

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

/** What a change of the graph needs of one task. */
export interface GraphTask {
  /** `blockedBy` uids as written (links are resolved from these, not the read form). */
  uids: readonly string[];
  completed: boolean;
}

/** The dependency links of one task and what they resolve to. */
interface Edges {
  uids: readonly string[];
  /** Per uid: the task it names, or undefined for none (missing, ambiguous, not a link). */
  targets: Array<string | undefined>;
  /** Name keys whose notes the resolutions looked for. */
  keys: Set<string>;
}

const sameList = (a: ReadonlyArray<string | undefined>, b: ReadonlyArray<string | undefined>): boolean =>
  a.length === b.length && a.every((v, i) => v === b[i]);

/**
 * The dependency graph of the indexed tasks: `isBlocked` as tasknotes-spec §10.2.5 defines it (a
 * dependency on a task that is not completed blocks; so does one on a task that cannot be found,
 * the spec's default), and the reverse `blocking` list. Only tasks with dependencies have edges.
 */
export class TaskGraph {
  readonly links: LinkIndex;
  private readonly edges = new Map<string, Edges>();
  /** Task path → paths of the tasks whose blockedBy resolves to it. */
  private readonly dependents = new Map<string, Set<string>>();
  /** Name key → tasks with a dependency link whose resolution depends on notes of that name. */
  private readonly byKey = new Map<string, Set<string>>();
  private readonly missingBlocks = missingTargetOutcome(DEFAULT_DEPENDENCY_POLICY, false).blocked;

  /**
   * @param paths every indexed task's path
   * @param tasks the indexed tasks that have dependency links, with their uids
   * @param statusOf the status of the indexed task at a path (undefined: no such task)
   * @param isCompleted whether a status is a completed one
   */
  constructor(
    paths: Iterable<string>,
    tasks: Iterable<{ path: string; uids: readonly string[] }>,
    private readonly statusOf: (path: string) => string | undefined,
    private readonly isCompleted: (status: string) => boolean,
  ) {
    this.links = new LinkIndex(paths);
    for (const task of tasks) this.link(task.path, task.uids);
  }

  /**
   * Applies one change of the index — a task added (`before` undefined), changed, or removed
   * (`after` undefined) — and returns the paths of the other tasks whose computed fields it may
   * have changed (their read shapes must be built again).
   */
  change(path: string, before: GraphTask | undefined, after: GraphTask | undefined): Set<string> {
    const affected = new Set<string>();
    // A new task is in the link index before its own links are resolved (it may name itself).
    if (!before) this.links.add(path);
    const uids = after?.uids ?? [];
    if (!sameList(before?.uids ?? [], uids)) this.link(path, uids, affected);
    if (!after) this.links.remove(path);
    if (!before || !after) {
      // The links that looked for a note of this name may now resolve otherwise.
      for (const task of [...(this.byKey.get(nameKeyOf(path)) ?? [])]) {
        if (task !== path) this.link(task, this.edges.get(task)!.uids, affected);
      }
    }
    if (before?.completed !== after?.completed) {
      for (const task of this.dependents.get(path) ?? []) affected.add(task);
    }
    affected.delete(path);
    return affected;
  }

  /**
   * The read shape (no details) of a task: `shape`, a new read shape (newViewShape) holding its
   * normalised fields, completed in place with the computed ones. `uids` are its `blockedBy`
   * uids; the graph's edges are used when they are the indexed task's own, else (a record no
   * longer or not yet indexed) they are resolved here.
   */
  view(shape: TaskBase, uids: readonly string[]): TaskInfo {
    const { path } = shape;
    const edges = this.edges.get(path);
    const targets =
      edges && sameList(edges.uids, uids) ? edges.targets : uids.map((uid) => this.links.resolve(uid, path));
    const isBlocked = targets.some((target) => {
      // A dependency on itself is a validation error, not a block.
      if (target === path) return false;
      const status = target === undefined ? undefined : this.statusOf(target);
      return status === undefined ? this.missingBlocks : !this.isCompleted(status);
    });
    const blocking = this.isCompleted(shape.status) ? [] : [...(this.dependents.get(path) ?? [])];
    shape.id = path;
    shape.totalTrackedTime = totalTrackedMinutes(shape.timeEntries);
    shape.isBlocked = isBlocked;
    shape.isBlocking = blocking.length > 0;
    // In path order, whatever order the dependencies were indexed in.
    if (blocking.length > 0) shape.blocking = blocking.sort();
    return shape as TaskInfo;
  }

  /**
   * (Re)resolves a task's dependency links (none: the task has no edges); adds to `affected` the
   * task itself and every target it gained or lost when the resolution changed.
   */
  private link(path: string, uids: readonly string[], affected?: Set<string>): void {
    const old = this.edges.get(path);
    for (const key of old?.keys ?? []) this.unfile(this.byKey, key, path);
    for (const target of old?.targets ?? [])
      if (target !== undefined) this.unfile(this.dependents, target, path);
    let edges: Edges | undefined;
    if (uids.length > 0) {
      edges = { uids, targets: [], keys: new Set() };
      for (const uid of uids) {
        const { target, keys } = this.links.resolution(uid, path);
        edges.targets.push(target);
        for (const key of keys) edges.keys.add(key);
      }
      this.edges.set(path, edges);
      for (const key of edges.keys) this.file(this.byKey, key, path);
      for (const target of edges.targets)
        if (target !== undefined && target !== path) this.file(this.dependents, target, path);
    } else {
      this.edges.delete(path);
    }
    if (!affected) return;
    const before = old?.targets ?? [];
    const after = edges?.targets ?? [];
    if (sameList(before, after)) return;
    affected.add(path);
    for (const target of [...before, ...after]) if (target !== undefined) affected.add(target);
  }

  private file(map: Map<string, Set<string>>, key: string, path: string): void {
    let set = map.get(key);
    if (!set) map.set(key, (set = new Set()));
    set.add(path);
  }

  private unfile(map: Map<string, Set<string>>, key: string, path: string): void {
    const set = map.get(key);
    set?.delete(path);
    if (set?.size === 0) map.delete(key);
  }
}
