/**
 * The tasks a query has to look at. A query whose top level is an AND with an `is` condition on
 * an enumerated built-in field (`status is open`, `priority is high`) can only match tasks with
 * that exact value, so only those are filtered: they come from a per-value index of the task
 * list, built on the first such query over that list (one pass) and kept as long as the list
 * (one list per index version, docs/performance.md). With both (`status is open` and `priority
 * is high`), from an index by the pair of values: the tasks that have both. Each bucket keeps the
 * list's order, so the matches, and the result, are exactly those of a filter over the whole list.
 *
 * Why: a filter over 100,000 tasks is bound by memory, not by the conditions (about 20 ns per task
 * for each field it reads, a cache miss per object), so visiting fewer tasks is what helps.
 */
import type { TaskInfo } from '../tasks/task-info.js';
import type { FilterNode } from './types.js';

/** Fields whose `is` is a plain string equality on a value every read shape has. */
const INDEXED = {
  status: (task: TaskInfo) => task.status,
  priority: (task: TaskInfo) => task.priority,
  // Both at once. Two pairs could share a key only through a NUL in a value, and a bucket with
  // more tasks than the pair's is still a superset: the filter tests both conditions anyway.
  'status+priority': (task: TaskInfo) => pairKey(task.status, task.priority),
} as const;
type IndexedField = keyof typeof INDEXED;

const pairKey = (status: string, priority: string): string => `${status}\u0000${priority}`;

type Buckets = Map<string, TaskInfo[]>;
const indexes = new WeakMap<readonly TaskInfo[], Partial<Record<IndexedField, Buckets>>>();

function bucketsOf(tasks: readonly TaskInfo[], field: IndexedField): Buckets {
  let byField = indexes.get(tasks);
  if (!byField) indexes.set(tasks, (byField = {}));
  let buckets = byField[field];
  if (!buckets) {
    buckets = new Map();
    const read = INDEXED[field];
    for (const task of tasks) {
      const value = read(task);
      const bucket = buckets.get(value);
      if (bucket) bucket.push(task);
      else buckets.set(value, [task]);
    }
    byField[field] = buckets;
  }
  return buckets;
}

/**
 * The smallest set of tasks that can match `root`: a bucket of an index when the query allows
 * one, else the whole list. The caller still applies the whole filter to it.
 */
export function candidates(tasks: readonly TaskInfo[], root: FilterNode): readonly TaskInfo[] {
  if (root.type !== 'group' || root.conjunction !== 'and') return tasks;
  let best = tasks;
  const narrow = (field: IndexedField, value: string): void => {
    const bucket = bucketsOf(tasks, field).get(value) ?? [];
    if (bucket.length < best.length) best = bucket;
  };
  let status: string | undefined;
  let priority: string | undefined;
  for (const child of root.children) {
    if (child.type !== 'condition' || child.operator !== 'is' || typeof child.value !== 'string') continue;
    if (child.property === 'status') status ??= child.value;
    else if (child.property === 'priority') priority ??= child.value;
    else continue;
    narrow(child.property, child.value);
  }
  // Every task of the pair's bucket has both values: the smallest set when the query names both.
  if (status !== undefined && priority !== undefined) narrow('status+priority', pairKey(status, priority));
  return best;
}
