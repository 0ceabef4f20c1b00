/**
 * Read-only questions about the tasks, answered by the query engine over the live index: a
 * FilterQuery run, the list filters of `GET /api/tasks`, filter options and statistics. HTTP
 * routes and MCP tools both call this, so each answer has one implementation.
 */
import type { Clock } from '../clock.js';
import type { TaskInfo } from '../tasks/task-info.js';
import type { PriorityConfig, StatusConfig } from '../tasks/tasknotes-settings.js';
import { filterOptions, type FilterOptions } from './filter-options.js';
import { listFilterQuery, type ListParams } from './list-filters.js';
import { runQuery, type QueryResult } from './run-query.js';
import { taskStats, type TaskStats } from './stats.js';
import { queryEnvOf, querySettingsOf, type TaskSource } from './task-source.js';

/** What the service reads from the task service (structural, so tests can pass a stub). */
export interface QueryTaskSource extends TaskSource {
  isCompletedStatus(status: string): boolean;
}

export class QueryService {
  constructor(
    private readonly tasks: QueryTaskSource,
    private readonly clock: Clock,
  ) {}

  /** Runs a raw FilterQuery; throws INVALID naming the problem and the node. */
  run(rawQuery: unknown): QueryResult {
    return runQuery(rawQuery, queryEnvOf(this.tasks, this.clock.now()));
  }

  /**
   * One page of the tasks matching the list filters of `GET /api/tasks` (see list-filters.ts);
   * `total` counts every match. Throws INVALID naming a bad parameter.
   */
  list(params: ListParams, offset: number, limit: number): { tasks: TaskInfo[]; total: number } {
    const filter = listFilterQuery(params, querySettingsOf(this.tasks.settings()));
    const { tasks, filtered } = this.run({ ...filter, offset, limit });
    return { tasks, total: filtered };
  }

  filterOptions(): FilterOptions<StatusConfig, PriorityConfig> {
    const settings = this.tasks.settings();
    return filterOptions(this.tasks.list(), {
      statuses: settings.customStatuses,
      priorities: settings.customPriorities,
      userFields: settings.userFields,
    });
  }

  stats(): TaskStats {
    return taskStats(this.tasks.list(), (s) => this.tasks.isCompletedStatus(s), this.clock.now());
  }
}
