/**
 * One `POST /api/tasks/query` run over a task list: validate, filter, sort, group, flatten.
 * `total` counts every task in the vault and `filtered` the tasks returned; grouping only orders
 * the result (each task once, SPEC §6), so `filtered` never counts a task twice.
 */
import type { TaskInfo } from '../tasks/task-info.js';
import { QueryContext } from './context.js';
import { compileFilter } from './evaluate.js';
import { groupTasks } from './group.js';
import { sortTasks } from './sort.js';
import type { QueryEnv } from './types.js';
import { parseFilterQuery } from './validate.js';

export interface QueryResult {
  tasks: TaskInfo[];
  total: number;
  filtered: number;
}

/** Runs a raw (unvalidated) FilterQuery; throws an INVALID DomainError naming the problem. */
export function runQuery(rawQuery: unknown, env: QueryEnv): QueryResult {
  const query = parseFilterQuery(rawQuery, env.settings);
  const ctx = new QueryContext(env);
  const matches = compileFilter(query.root, ctx);
  const sorted = sortTasks(env.tasks.filter(matches), query.options, ctx);
  const tasks = groupTasks(sorted, query.options.groupKey, ctx).flatMap((g) => g.tasks);
  return { tasks, total: env.tasks.length, filtered: tasks.length };
}
