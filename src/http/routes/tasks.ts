/** Task routes (as in the TaskNotes plugin). Handlers call the task service; it emits the events. */
import { Type } from '@sinclair/typebox';
import { hasListFilters, type ListParams } from '../../core/query/list-filters.js';
import { BUILTIN_SORT_KEYS } from '../../core/query/types.js';
import { CreateTaskBodySchema, TaskInfoSchema, UpdateTaskBodySchema } from '../../core/tasks/task-fields.js';
import type { TaskInfo } from '../../core/tasks/task-info.js';
import {
  IF_MATCH_NOTE,
  notModified,
  notModifiedResult,
  NotModifiedSchema,
  preconditionOf,
  PreconditionFailedSchema,
  taskResult,
} from '../conditional.js';
import { defineRoute, IdParams, MessageData, ok, type RawResult, type RouteSpec } from '../route.js';
import { ResponseCache } from '../response-cache.js';
import { okWithTasks } from '../task-json.js';

/** Encoded list pages of the current task index: polling clients mostly ask for the same page. */
const listPages = new ResponseCache();

const T = ['tasks'];

const FilterParam = (description: string) =>
  Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())], { description }));
const ONE_OR_MORE = 'Comma-separated or repeated for any of several values.';

const DeleteQuery = Type.Object({
  checkBacklinks: Type.Optional(
    Type.Boolean({ description: 'Refuse (400) while other tasks link to this one (default false)' }),
  ),
  force: Type.Optional(Type.Boolean({ description: 'Delete even when checkBacklinks finds links' })),
});

const ListQuery = Type.Object(
  {
    offset: Type.Optional(Type.String({ description: 'Integer ≥ 0 (default 0)' })),
    limit: Type.Optional(Type.String({ description: 'Integer 1–200 (default 50)' })),
    status: FilterParam(`Status value (\`is\`). ${ONE_OR_MORE}`),
    priority: FilterParam(`Priority value (\`is\`). ${ONE_OR_MORE}`),
    project: FilterParam(
      `Project, by display name or link (\`Website\`, \`[[Website]]\`; FilterQuery \`projects contains\`). ${ONE_OR_MORE}`,
    ),
    context: FilterParam(`Context, by substring (\`contexts contains\`). ${ONE_OR_MORE}`),
    tag: FilterParam(
      `Tag: exact, parent tag or substring; \`-tag\` excludes (\`tags contains\`). ${ONE_OR_MORE}`,
    ),
    completed: Type.Optional(Type.String({ description: '`true` or `false` (status.isCompleted)' })),
    archived: Type.Optional(Type.String({ description: '`true` or `false`' })),
    overdue: Type.Optional(
      Type.String({ description: '`true` or `false`: due date/time passed (local clock) and not completed' }),
    ),
    due_before: Type.Optional(
      Type.String({ description: 'Due strictly before: a date, date-time or relative date' }),
    ),
    due_after: Type.Optional(Type.String({ description: 'Due strictly after' })),
    scheduled_before: Type.Optional(Type.String({ description: 'Scheduled strictly before' })),
    scheduled_after: Type.Optional(Type.String({ description: 'Scheduled strictly after' })),
    sort: Type.Optional(
      Type.String({
        description: `\`field\` or \`field:asc|desc\`; fields: ${BUILTIN_SORT_KEYS.join(', ')}, user:<fieldId>. Default: path.`,
      }),
    ),
  },
  { additionalProperties: true },
);

const ListData = Type.Object({
  tasks: Type.Array(TaskInfoSchema),
  pagination: Type.Object({
    total: Type.Integer(),
    offset: Type.Integer(),
    limit: Type.Integer(),
    hasMore: Type.Boolean(),
  }),
  vault: Type.Object({ name: Type.String(), path: Type.Union([Type.String(), Type.Null()]) }),
  note: Type.String(),
});

/** `parseInt` semantics of the reference: "10abc" is 10, anything else falls back. */
function intParam(value: string | undefined): number {
  return value === undefined ? Number.NaN : Number.parseInt(value, 10);
}

const TaskWithDetails = Type.Intersect([TaskInfoSchema, Type.Object({ details: Type.String() })]);

export const taskRoutes: RouteSpec[] = [
  defineRoute({
    method: 'GET',
    url: '/api/tasks',
    summary: 'List tasks, optionally filtered',
    description:
      'Without filter parameters: every task sorted by path, one page of it. With filters (the parameters ' +
      'agent scripts send), the query engine of POST /api/tasks/query answers: all filters must hold, and ' +
      '`pagination.total` counts the matching tasks. A bad filter value is a 400 naming the parameter; ' +
      'unknown parameters are ignored.',
    tags: T,
    querystring: ListQuery,
    responses: { 200: ListData },
    handler: async ({ query }, ctx) => {
      let offset = intParam(query.offset);
      if (!Number.isFinite(offset) || offset < 0) offset = 0;
      let limit = intParam(query.limit);
      if (!Number.isFinite(limit) || limit < 1) limit = 50;
      limit = Math.min(limit, 200);
      const tasks = ctx.services.tasks;
      const page = (found: readonly TaskInfo[], total: number): RawResult =>
        // Tasks' JSON comes from the per-task cache (the biggest per-request cost of this route).
        okWithTasks({
          tasks: found,
          pagination: { total, offset, limit, hasMore: offset + limit < total },
          vault: ctx.services.vaultInfo,
          note: 'For filtering and advanced queries, use POST /api/tasks/query',
        });
      if (hasListFilters(query as ListParams)) {
        const found = ctx.services.queries.list(query as ListParams, offset, limit);
        return page(found.tasks, found.total);
      }
      return listPages.get(tasks, `${offset}:${limit}`, () => {
        const { tasks: found, total } = tasks.page(offset, limit);
        return page(found, total);
      });
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/tasks',
    summary: 'Create a task',
    description:
      'Writes a new task note in the tasks folder; emits task.created. The answer carries its ETag.',
    tags: T,
    body: CreateTaskBodySchema,
    responses: { 201: TaskWithDetails },
    handler: async ({ body }, ctx) => {
      const task = await ctx.services.tasks.create(body);
      return taskResult(ctx, task, task, 201);
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/tasks/:id',
    summary: 'Get one task',
    description:
      "The task with its body as `details`, and the note's strong `ETag`. With `If-None-Match` naming " +
      'the current ETag: 304 without a body.',
    tags: T,
    params: IdParams,
    responses: { 200: TaskWithDetails, 304: NotModifiedSchema },
    handler: async ({ params, headers }, ctx) => {
      const task = await ctx.services.tasks.get(params.id);
      const etag = ctx.services.tasks.etagOf(task);
      if (etag !== undefined && notModified(headers, etag)) return notModifiedResult(etag);
      return taskResult(ctx, task);
    },
  }),
  defineRoute({
    method: 'PUT',
    url: '/api/tasks/:id',
    summary: 'Update a task',
    description:
      'Partial update; emits task.completed (status moved into a completed status) or task.updated. ' +
      'A title change renames the note; `id` and `path` in the response are the current path.' +
      IF_MATCH_NOTE,
    tags: T,
    params: IdParams,
    body: UpdateTaskBodySchema,
    responses: { 200: TaskInfoSchema, 412: PreconditionFailedSchema },
    handler: async ({ params, body, headers }, ctx) =>
      taskResult(
        ctx,
        await ctx.services.tasks.update(params.id, body, { precondition: preconditionOf(headers) }),
      ),
  }),
  defineRoute({
    method: 'DELETE',
    url: '/api/tasks/:id',
    summary: 'Delete a task',
    description:
      "Moves the note to the vault's `.trash/` folder (a note that is a symbolic link moves as the link; its target stays); emits task.deleted. " +
      'With `checkBacklinks=true` it is refused (400, naming the linking tasks) while other tasks link to it (blockedBy, projects, recurrence_parent), unless `force=true`.' +
      IF_MATCH_NOTE,
    tags: T,
    params: IdParams,
    querystring: DeleteQuery,
    responses: { 200: MessageData, 412: PreconditionFailedSchema },
    handler: async ({ params, query, headers }, ctx) => {
      await ctx.services.tasks.delete(params.id, {
        precondition: preconditionOf(headers),
        checkBacklinks: query.checkBacklinks === true,
        force: query.force === true,
      });
      return ok({ message: 'Task deleted successfully' });
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/tasks/:id/toggle-status',
    summary: 'Toggle completion',
    description:
      'Completed → the default status; otherwise → the first completed status. Emits task.completed or task.updated.' +
      IF_MATCH_NOTE,
    tags: T,
    params: IdParams,
    responses: { 200: TaskInfoSchema, 412: PreconditionFailedSchema },
    handler: async ({ params, headers }, ctx) =>
      taskResult(
        ctx,
        await ctx.services.tasks.toggleStatus(params.id, { precondition: preconditionOf(headers) }),
      ),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/tasks/:id/archive',
    summary: 'Toggle the archive flag',
    description:
      'Adds or removes the `archived` tag; emits task.archived or task.unarchived.' + IF_MATCH_NOTE,
    tags: T,
    params: IdParams,
    responses: { 200: TaskInfoSchema, 412: PreconditionFailedSchema },
    handler: async ({ params, headers }, ctx) =>
      taskResult(
        ctx,
        await ctx.services.tasks.toggleArchive(params.id, { precondition: preconditionOf(headers) }),
      ),
  }),
];
