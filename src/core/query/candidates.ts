/**
 * The tasks a query has to look at. A query whose top level is an AND can only match tasks that
 * meet each of its conditions, and three kinds of condition are answered from per-value indexes of
 * the task list instead of by reading every task: `is` on the enumerated built-in fields
 * (`status is open`, `priority is high`) and `contains` on `contexts`, which is tested once per
 * distinct context (six in the bench vault) with the filter's own matcher rather than once per
 * task. Each index lists, per value, the positions in the list of the tasks that have it; it is
 * built on the first query that can use it over a list (one pass) and kept as long as the list
 * (one list per index version, docs/performance.md). The candidates are the tasks at the positions
 * every such condition allows, in the list's order, so the matches, and the result, are exactly
 * those of a filter over the whole list: the caller still applies the whole filter to them.
 *
 * Why: a filter over 100,000 tasks is bound by memory, not by the conditions (each task read is a
 * cache miss or several: 250 ns a task for `status` and `contexts` on the scale bench's server),
 * so visiting fewer tasks is what helps, and intersecting position lists visits none.
 */
import type { TaskInfo } from '../tasks/task-info.js';
import type { QueryContext } from './context.js';
import { containsMatcher } from './evaluate.js';
import { lookupProperty, type PropertyDef } from './properties.js';
import type { FilterCondition, FilterNode } from './types.js';
import { isIncomplete } from './validate.js';

/** The indexed built-in properties, and whether the index is by list item or by value. */
const INDEXED = { status: 'value', priority: 'value', contexts: 'items' } as const;
type IndexedProperty = keyof typeof INDEXED;

/** Value (or list item) → ascending positions in the task list of the tasks that have it. */
type Postings = Map<unknown, Int32Array>;

const indexes = new WeakMap<readonly TaskInfo[], Partial<Record<IndexedProperty, Postings>>>();

const isIndexed = (property: string): property is IndexedProperty => Object.hasOwn(INDEXED, property);

function postingsOf(tasks: readonly TaskInfo[], property: IndexedProperty, ctx: QueryContext): Postings {
  let byProperty = indexes.get(tasks);
  if (!byProperty) indexes.set(tasks, (byProperty = {}));
  const known = byProperty[property];
  if (known) return known;
  // The filter's own getter, so the index holds exactly the values the filter reads. These
  // built-ins read the task alone, never the run's context, so the index outlives the run.
  const { get } = lookupProperty(property, ctx) as PropertyDef;
  const lists = new Map<unknown, number[]>();
  const add = (key: unknown, position: number): void => {
    const list = lists.get(key);
    if (!list) lists.set(key, [position]);
    // A list naming an item twice files the task once.
    else if (list[list.length - 1] !== position) list.push(position);
  };
  tasks.forEach((task, position) => {
    const value = get(task, ctx);
    if (INDEXED[property] === 'items' && Array.isArray(value)) for (const item of value) add(item, position);
    else add(value, position);
  });
  const postings: Postings = new Map();
  for (const [key, list] of lists) postings.set(key, Int32Array.from(list));
  return (byProperty[property] = postings);
}

/**
 * The positions of the tasks that can meet one condition of the top-level AND, or undefined when
 * no index answers it (the condition does not narrow).
 */
function allowed(
  tasks: readonly TaskInfo[],
  condition: FilterCondition,
  ctx: QueryContext,
): Int32Array | undefined {
  const { property, operator, value } = condition;
  if (!isIndexed(property) || isIncomplete(condition)) return undefined;
  if (INDEXED[property] === 'value') {
    // The filter's `is` of a string is plain equality with these fields' values, always strings
    // in a read shape (evaluate.ts, valueIs).
    if (operator !== 'is' || typeof value !== 'string') return undefined;
    return postingsOf(tasks, property, ctx).get(value) ?? new Int32Array(0);
  }
  if (operator !== 'contains' || value === undefined) return undefined;
  const hit = containsMatcher(value);
  const matching: Int32Array[] = [];
  for (const [item, positions] of postingsOf(tasks, property, ctx)) if (hit(item)) matching.push(positions);
  return union(matching);
}

/** The ascending positions in any of `lists` (each ascending). */
function union(lists: Int32Array[]): Int32Array {
  if (lists.length === 1) return lists[0]!;
  let total = 0;
  for (const list of lists) total += list.length;
  const all = new Int32Array(total);
  let at = 0;
  for (const list of lists) {
    all.set(list, at);
    at += list.length;
  }
  all.sort();
  let kept = 0;
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) all[kept++] = all[i]!;
  return all.subarray(0, kept);
}

/** The ascending positions in both `a` and `b` (each ascending). */
function intersect(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(Math.min(a.length, b.length));
  let n = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i]! < b[j]!) i++;
    else if (a[i]! > b[j]!) j++;
    else {
      out[n++] = a[i]!;
      i++;
      j++;
    }
  }
  return out.subarray(0, n);
}

/**
 * The tasks that can match `root`, in list order: those every indexed condition of a top-level AND
 * allows, or the whole list when there is none. The caller still applies the whole filter to them.
 */
export function candidates(
  tasks: readonly TaskInfo[],
  root: FilterNode,
  ctx: QueryContext,
): readonly TaskInfo[] {
  if (root.type !== 'group' || root.conjunction !== 'and') return tasks;
  const sets: Int32Array[] = [];
  for (const child of root.children) {
    if (child.type !== 'condition') continue;
    const positions = allowed(tasks, child, ctx);
    if (positions) sets.push(positions);
  }
  if (sets.length === 0) return tasks;
  // Smallest first: each step costs the sizes of the two lists, and the result only shrinks.
  sets.sort((a, b) => a.length - b.length);
  let positions = sets[0]!;
  for (let k = 1; k < sets.length && positions.length > 0; k++) positions = intersect(positions, sets[k]!);
  return Array.from(positions, (position) => tasks[position]!);
}
