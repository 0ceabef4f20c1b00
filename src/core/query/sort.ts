/**
 * Sorting of query results (as in the TaskNotes plugin). Keys are computed once per task
 * (decorate-sort-undecorate), so a 10,000-task sort parses each date once rather than on every
 * comparison. Ties go through a fixed chain that the direction does not affect: due, scheduled,
 * priority (higher weight first), title; the primary key is skipped in that chain.
 */
import type { TaskInfo } from '../tasks/task-info.js';
import type { QueryContext } from './context.js';
import { parseDate } from './dates.js';
import { USER_PREFIX, rawUserValue, userValue } from './properties.js';
import type { QueryOptions } from './types.js';

/** Text prepared for comparison once per task rather than once per comparison. */
interface TextKey {
  text: string;
  lower: string;
  /** Lower-cased text of only a-z, 0-9 and spaces. */
  simple: boolean;
}

/** Sort key of one task: undefined means "no value" and sorts after every value in ascending order. */
type Key = number | TextKey | undefined;

let collator: Intl.Collator | undefined;

/**
 * localeCompare order through one shared collator, created on first use: ICU's collation data
 * (~3 MB resident) stays unloaded while every text compared is simple (see compareText).
 */
export function compareLocale(a: string, b: string): number {
  collator ??= new Intl.Collator();
  return collator.compare(a, b);
}

const SIMPLE_RE = /^[a-z0-9 ]*$/;

function textKey(text: string | undefined): TextKey | undefined {
  if (text === undefined) return undefined;
  const lower = text.toLowerCase();
  return { text, lower, simple: SIMPLE_RE.test(lower) };
}

/**
 * Locale order (localeCompare, as the reference) at a fraction of its cost: for text made of
 * letters, digits and spaces only, the default collation's primary order is the code-unit order
 * of the lower-cased text (space < digits < letters), so the collator is needed only for other
 * text and for texts that differ in case alone. Sorting 10,000 tasks by due date falls through to
 * the title tie-break very often, which made the collator the main cost of a large query.
 */
function compareText(a: TextKey, b: TextKey): number {
  if (a.simple && b.simple && a.lower !== b.lower) return a.lower < b.lower ? -1 : 1;
  return compareLocale(a.text, b.text);
}

/**
 * One comparison for every key kind: numbers numerically, text by compareText, and a missing
 * value after any value. A single function keeps the sort's hot path monomorphic.
 */
function compareKeys(a: Key, b: Key): number {
  if (a === b) return 0;
  if (a === undefined) return 1;
  if (b === undefined) return -1;
  if (typeof a === 'number') return a - (b as number);
  return compareText(a, b as TextKey);
}

const instantOf = (v: unknown): number | undefined =>
  typeof v === 'string' ? parseDate(v)?.instant : undefined;

type KeyOf = (task: TaskInfo) => Key;

/** The key of a sort key name; an unknown name gives no key, so it compares equal. */
function keyOf(sortKey: string, ctx: QueryContext): KeyOf {
  switch (sortKey) {
    // Named loads, not t[sortKey]: a keyed load on task objects of many shapes is V8's slowest
    // property access, and a broad query reads the key of every match.
    case 'due':
      return (t) => instantOf(t.due);
    case 'scheduled':
      return (t) => instantOf(t.scheduled);
    case 'dateCreated':
      return (t) => instantOf(t.dateCreated);
    case 'dateModified':
      return (t) => instantOf(t.dateModified);
    case 'completedDate':
      return (t) => instantOf(t.completedDate);
    case 'priority':
      return (t) => ctx.priorityWeight(t.priority) ?? 0;
    case 'status':
      return (t) => ctx.statusOrder(t.status);
    case 'title':
      return (t) => textKey(t.title);
    case 'tags':
      return (t) => textKey(t.tags[0]?.toLowerCase());
    case 'path':
      // Code-unit order of the path (the task index's own order), not locale order: marked
      // "simple" so compareText compares the texts as they are.
      return (t) => ({ text: t.path, lower: t.path, simple: true });
  }
  const field = sortKey.startsWith(USER_PREFIX)
    ? ctx.userField(sortKey.slice(USER_PREFIX.length))
    : undefined;
  if (!field) return () => undefined;
  const value = (t: TaskInfo): unknown => userValue(rawUserValue(t, field), field.type);
  switch (field.type) {
    case 'number':
      return (t) => finiteOrUndefined(value(t));
    case 'boolean':
      // true, then false, then missing.
      return (t) => (rawUserValue(t, field) == null ? undefined : value(t) ? 0 : 1);
    case 'date':
      return (t) => instantOf(value(t));
    case 'list':
      return (t) => textKey((value(t) as string[] | undefined)?.[0]);
    case 'text': {
      const text = (v: unknown): string | undefined => (v === undefined ? undefined : String(v));
      return (t) => textKey(text(value(t)));
    }
  }
}

const finiteOrUndefined = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? v : undefined;

/** A task being sorted: its primary key, and its tie-break keys once a comparison needs them. */
interface Row {
  task: TaskInfo;
  /** Position in the input: the order of tasks that compare equal (the sort is stable). */
  index: number;
  p: Key;
  ties: [due: Key, scheduled: Key, priority: Key, title: Key] | undefined;
}

/** Sorts a copy of `tasks` by the query options (one page of them: `sortedHead`). */
export function sortTasks(tasks: readonly TaskInfo[], options: QueryOptions, ctx: QueryContext): TaskInfo[] {
  const { primary, compare } = comparison(options, ctx);
  // Array.prototype.sort is stable: tasks that compare equal keep their input order.
  return tasks
    .map((task, i) => row(task, i, primary(task)))
    .sort(compare)
    .map((r) => r.task);
}

/**
 * The first `first` tasks of `tasks` in the query's order, of those `keep` accepts (all without
 * it), and how many it accepted: picked in one pass with a bounded heap instead of sorting every
 * match, and without making a list of the matches (at 100,000 tasks a query matching 70,000 made
 * a 560 KB array per request, which V8 allocates in its large-object space and frees only in a
 * full collection; on Node 24 the scale bench's RSS grew by 110 MB of them). Tie-break keys are
 * computed only for tasks whose primary key ties in a comparison. On the 100,000-task scale bench
 * (docs/performance.md), a query matching 70,000 tasks answers its first page of 50 in a few
 * milliseconds instead of ~400 ms.
 */
export function sortedHead(
  tasks: readonly TaskInfo[],
  options: QueryOptions,
  ctx: QueryContext,
  first: number,
  keep?: (task: TaskInfo) => boolean,
): { tasks: TaskInfo[]; matched: number } {
  const { primary, sign, compare } = comparison(options, ctx);
  // Max-heap of the best `first` rows so far, the worst on top; equal rows by input position.
  const worse = (a: Row, b: Row): boolean => (compare(a, b) || a.index - b.index) > 0;
  const heap: Row[] = [];
  let matched = 0;
  for (let i = 0; i < tasks.length; i++) {
    const task = tasks[i]!;
    if (keep && !keep(task)) continue;
    matched++;
    if (first <= 0) continue;
    const p = primary(task);
    if (heap.length < first) {
      heap.push(row(task, i, p));
      for (let c = heap.length - 1; c > 0;) {
        const parent = (c - 1) >> 1;
        if (!worse(heap[c]!, heap[parent]!)) break;
        [heap[c], heap[parent]] = [heap[parent]!, heap[c]!];
        c = parent;
      }
      continue;
    }
    // Most tasks lose to the worst kept one on the primary key alone, before any allocation.
    const byPrimary = sign * compareKeys(p, heap[0]!.p);
    if (byPrimary > 0) continue;
    const candidate = row(task, i, p);
    // A later task that compares equal to the worst kept one stays out (stable order).
    if (byPrimary === 0 && !worse(heap[0]!, candidate)) continue;
    heap[0] = candidate;
    for (let c = 0; ;) {
      const l = 2 * c + 1;
      const r = l + 1;
      let top = c;
      if (l < heap.length && worse(heap[l]!, heap[top]!)) top = l;
      if (r < heap.length && worse(heap[r]!, heap[top]!)) top = r;
      if (top === c) break;
      [heap[c], heap[top]] = [heap[top]!, heap[c]!];
      c = top;
    }
  }
  const sorted = heap.sort((a, b) => compare(a, b) || a.index - b.index).map((r) => r.task);
  return { tasks: sorted, matched };
}

const row = (task: TaskInfo, index: number, p: Key): Row => ({ task, index, p, ties: undefined });

/** The query's order: each task's primary key, and the comparison of two rows (ties broken). */
function comparison(
  options: QueryOptions,
  ctx: QueryContext,
): { primary: KeyOf; sign: number; compare: (a: Row, b: Row) => number } {
  const primary = keyOf(options.sortKey, ctx);
  const sign = options.sortDirection === 'desc' ? -1 : 1;
  // The tie chain always has four keys: an unused slot (the primary key's own) has no key.
  const tie = (name: string): KeyOf => (name === options.sortKey ? () => undefined : keyOf(name, ctx));
  const [due, scheduled, priority, title] = ['due', 'scheduled', 'priority', 'title'].map(tie) as [
    KeyOf,
    KeyOf,
    KeyOf,
    KeyOf,
  ];
  const tiesOf = (r: Row): NonNullable<Row['ties']> =>
    (r.ties ??= [due(r.task), scheduled(r.task), priority(r.task), title(r.task)]);
  const compare = (a: Row, b: Row): number => {
    const byPrimary = sign * compareKeys(a.p, b.p);
    if (byPrimary !== 0) return byPrimary;
    const x = tiesOf(a);
    const y = tiesOf(b);
    return (
      compareKeys(x[0], y[0]) ||
      compareKeys(x[1], y[1]) ||
      // Priority breaks ties with the higher weight first.
      compareKeys(y[2], x[2]) ||
      compareKeys(x[3], y[3])
    );
  };
  return { primary, sign, compare };
}
