/**
 * Grouping of query results (as in the TaskNotes plugin). Every task lands in exactly
 * ONE group: the reference puts a task under each of its projects or tags, which duplicates it
 * in the flattened result and in `filtered` (fixed here, docs/api-decisions.md); here a multi-valued task goes
 * to the group of its first project or first tag. Input order is kept inside each group, so a
 * sorted input stays sorted per group.
 */
import type { TaskInfo } from '../tasks/task-info.js';
import { addDays } from '../recurrence/day.js';
import { Series } from '../recurrence/series.js';
import type { QueryContext } from './context.js';
import { parseDate } from './dates.js';
import { parseLink, withoutMd } from './links.js';
import { compareLocale } from './sort.js';
import { USER_PREFIX, rawUserValue, userValue } from './properties.js';

export interface TaskGroup {
  key: string;
  tasks: TaskInfo[];
}

interface Grouper {
  keyOf(task: TaskInfo): string;
  /** Orders group keys; keys in `last` come after all others, in that order. */
  order(a: string, b: string): number;
  last?: readonly string[];
}

const alphabetical = compareLocale;

const DUE_BUCKETS = [
  'Overdue',
  'Today',
  'Tomorrow',
  'Next seven days',
  'Later',
  'No due date',
  'Invalid date',
];
const SCHEDULED_BUCKETS = [
  'Past scheduled',
  'Today',
  'Tomorrow',
  'Next seven days',
  'Later',
  'No scheduled date',
  'Invalid date',
];
const byBucket =
  (buckets: readonly string[]) =>
  (a: string, b: string): number =>
    buckets.indexOf(a) - buckets.indexOf(b);

/** Relative day bucket of a date value; `past` names the bucket for days before today. */
function dayBucket(value: string | undefined, ctx: QueryContext, past: string, none: string): string {
  if (value === undefined || value.trim() === '') return none;
  const day = parseDate(value)?.day;
  if (day === undefined) return 'Invalid date';
  if (day < ctx.today) return past;
  if (day === ctx.today) return 'Today';
  if (day === addDays(ctx.today, 1)) return 'Tomorrow';
  if (day <= addDays(ctx.today, 7)) return 'Next seven days';
  return 'Later';
}

/** A recurring task whose rule has an occurrence today is due today, whatever its `due` says. */
function occursToday(task: TaskInfo, today: string): boolean {
  if (!task.recurrence) return false;
  try {
    return Series.of({
      recurrence: task.recurrence,
      scheduled: task.scheduled,
      dateCreated: task.dateCreated,
    }).occursOn(today);
  } catch {
    // A broken rule simply does not recur; the task is grouped by its due date.
    return false;
  }
}

function grouper(groupKey: string, ctx: QueryContext): Grouper | undefined {
  switch (groupKey) {
    case 'none':
      return undefined;
    case 'status':
      return {
        keyOf: (t) => t.status,
        // Configured statuses by their order, then unknown values alphabetically.
        order: (a, b) =>
          Number(!ctx.hasStatus(a)) - Number(!ctx.hasStatus(b)) ||
          ctx.statusOrder(a) - ctx.statusOrder(b) ||
          alphabetical(a, b),
      };
    case 'priority':
      return {
        keyOf: (t) => t.priority,
        order: (a, b) =>
          (ctx.priorityWeight(b) ?? -Infinity) - (ctx.priorityWeight(a) ?? -Infinity) || alphabetical(a, b),
      };
    case 'context':
      return { keyOf: (t) => t.contexts[0] ?? 'none', order: alphabetical, last: ['none'] };
    case 'project':
      return {
        keyOf: (t) => {
          const first = t.projects[0];
          if (first === undefined) return 'No project';
          const resolved = ctx.resolve(first, t.path);
          // An unresolved link is keyed by its target text, like a path without `.md`.
          return withoutMd(resolved ?? (parseLink(first).target || first));
        },
        order: alphabetical,
        last: ['No project'],
      };
    case 'tags':
      return { keyOf: (t) => t.tags[0] ?? 'No tags', order: alphabetical, last: ['No tags'] };
    case 'due':
      return {
        keyOf: (t) => {
          if (occursToday(t, ctx.today)) return 'Today';
          // A completed task due in the past is not overdue (hideCompletedFromOverdue): it has no
          // bucket of its own and goes to `Later`.
          if (ctx.isOverdue(t)) return 'Overdue';
          return dayBucket(t.due, ctx, 'Later', 'No due date');
        },
        order: byBucket(DUE_BUCKETS),
      };
    case 'scheduled':
      return {
        keyOf: (t) => dayBucket(t.scheduled, ctx, 'Past scheduled', 'No scheduled date'),
        order: byBucket(SCHEDULED_BUCKETS),
      };
    case 'completedDate':
      return {
        keyOf: (t) => parseDate(t.completedDate ?? '')?.day ?? t.completedDate ?? 'Not completed',
        order: (a, b) => -alphabetical(a, b),
        last: ['Not completed'],
      };
  }
  return userGrouper(groupKey, ctx);
}

function userGrouper(groupKey: string, ctx: QueryContext): Grouper | undefined {
  const field = groupKey.startsWith(USER_PREFIX)
    ? ctx.userField(groupKey.slice(USER_PREFIX.length))
    : undefined;
  if (!field) return undefined;
  const NONE = 'No value';
  const keyOf = (t: TaskInfo): string => {
    const v = userValue(rawUserValue(t, field), field.type);
    if (v === undefined) return NONE;
    if (typeof v === 'number') return Number.isFinite(v) ? String(v) : NONE;
    if (Array.isArray(v)) return v.length > 0 ? String(v[0]) : NONE;
    return String(v).trim() === '' ? NONE : String(v);
  };
  const order =
    field.type === 'number'
      ? (a: string, b: string) => Number(a) - Number(b)
      : field.type === 'boolean'
        ? (a: string, b: string) => Number(b === 'true') - Number(a === 'true')
        : alphabetical;
  return { keyOf, order, last: [NONE] };
}

/** Splits `tasks` into ordered groups; each task appears in exactly one group. */
export function groupTasks(tasks: readonly TaskInfo[], groupKey: string, ctx: QueryContext): TaskGroup[] {
  const g = grouper(groupKey, ctx);
  if (!g) return [{ key: 'all', tasks: [...tasks] }];
  const groups = new Map<string, TaskInfo[]>();
  for (const task of tasks) {
    const key = g.keyOf(task);
    const list = groups.get(key);
    if (list) list.push(task);
    else groups.set(key, [task]);
  }
  const last = g.last ?? [];
  const rank = (k: string): number => {
    const i = last.indexOf(k);
    return i < 0 ? -1 : i;
  };
  return [...groups.entries()]
    .sort(([a], [b]) => rank(a) - rank(b) || (rank(a) < 0 ? g.order(a, b) : 0))
    .map(([key, list]) => ({ key, tasks: list }));
}
