/**
 * One `POST /api/tasks/query` run over a task list: validate, filter, sort, group, flatten, page.
 * `total` counts every task in the vault and `filtered` every task that matches (before paging);
 * grouping only orders the result (each task once, docs/api-decisions.md), so `filtered` never counts a task
 * twice.
 */
import type { TaskInfo } from '../tasks/task-info.js';
import { candidates } from './candidates.js';
import { QueryContext } from './context.js';
import { compileFilter } from './evaluate.js';
import { groupTasks, type TaskGroup } from './group.js';
import { sortedHead, sortTasks } from './sort.js';
import type { QueryEnv, QueryOptions } from './types.js';
import { parseFilterQuery } from './validate.js';

export interface QueryResult {
  /** The requested page of the flattened, grouped result. */
  tasks: TaskInfo[];
  total: number;
  filtered: number;
  /** The page's tasks by group, in group order (one group `all` without a groupKey). */
  groups: TaskGroup[];
}

/** Runs a raw (unvalidated) FilterQuery; throws an INVALID DomainError naming the problem. */
export function runQuery(rawQuery: unknown, env: QueryEnv): QueryResult {
  const query = parseFilterQuery(rawQuery, env.settings);
  const ctx = new QueryContext(env);
  const pool = candidates(env.tasks, query.root, ctx);
  const filter = compileFilter(query.root, ctx);
  const { offset, limit } = query.page;
  const end = limit === undefined ? Infinity : offset + limit;
  // Ungrouped, a page is the head of the sorted matches: only that head is kept and sorted.
  const { tasks: sorted, matched } =
    limit !== undefined && query.options.groupKey === 'none'
      ? sortedHead(pool, query.options, ctx, end, filter)
      : everyMatch(pool, filter, query.options, ctx);
  const all = groupTasks(sorted, query.options.groupKey, ctx);
  const groups: TaskGroup[] = [];
  let position = 0;
  for (const group of all) {
    const from = Math.max(offset - position, 0);
    const to = Math.min(end - position, group.tasks.length);
    position += group.tasks.length;
    if (from < to) groups.push({ key: group.key, tasks: group.tasks.slice(from, to) });
  }
  return { tasks: groups.flatMap((g) => g.tasks), total: env.tasks.length, filtered: matched, groups };
}

/** Every task of `pool` that `filter` accepts, sorted. */
function everyMatch(
  pool: readonly TaskInfo[],
  filter: (task: TaskInfo) => boolean,
  options: QueryOptions,
  ctx: QueryContext,
): { tasks: TaskInfo[]; matched: number } {
  const matches = pool.filter(filter);
  return { tasks: sortTasks(matches, options, ctx), matched: matches.length };
}
