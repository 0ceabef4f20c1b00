/**
 * Read-only task queries: `POST /api/tasks/query` (FilterQuery), `GET /api/filter-options` and
 * `GET /api/stats` (as in the TaskNotes plugin). The engine lives in core/query; these
 * handlers only bind it to the live index and the clock.
 */
import {
  FilterOptionsSchema,
  FilterQuerySchema,
  QueryResultSchema,
  StatsSchema,
} from '../../core/query/schema.js';
import { okWithTasks } from '../task-json.js';
import { defineRoute, ok, type RouteSpec } from '../route.js';
import { validatedByHandler } from '../validation.js';

const T = ['tasks'];

export const taskQueryRoutes: RouteSpec[] = [
  defineRoute({
    method: 'POST',
    url: '/api/tasks/query',
    summary: 'Query tasks with a FilterQuery',
    description:
      'Filters every task with a tree of groups (and/or) and conditions, then sorts (`sortKey`, ' +
      '`sortDirection`) and groups (`groupKey`) the result, which is returned flattened in group order with ' +
      'each task once. Optional `limit` and `offset` on the root return one page of it (`filtered` still ' +
      "counts every match). Node ids are optional. Relative dates and overdue use the server's local date. An invalid " +
      'query is a 400 whose message names the problem and the node (e.g. ' +
      '`Invalid FilterQuery at root.children[0]: unknown property "colour"`).',
    tags: T,
    body: validatedByHandler(FilterQuerySchema),
    responses: { 200: QueryResultSchema },
    handler: async ({ body }, ctx) => {
      const { tasks, total, filtered } = ctx.services.queries.run(body);
      return okWithTasks({ tasks, total, filtered, vault: ctx.services.vaultInfo });
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/filter-options',
    summary: 'Values available for filters',
    description:
      'Configured statuses and priorities, the contexts, projects, tags and folders found in tasks, and the ' +
      'user fields usable as `user:<fieldId>` FilterQuery properties with their operators.',
    tags: T,
    responses: { 200: FilterOptionsSchema },
    handler: async (_input, ctx) => ok(ctx.services.queries.filterOptions()),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/stats',
    summary: 'Task statistics',
    description: 'Counts over every task. `overdue` uses the local date and time.',
    tags: T,
    responses: { 200: StatsSchema },
    handler: async (_input, ctx) => ok(ctx.services.queries.stats()),
  }),
];
