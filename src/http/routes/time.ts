/** Time-tracking routes (as in the TaskNotes plugin). The time service emits the events. */
import { Type } from '@sinclair/typebox';
import { TaskInfoSchema } from '../../core/tasks/task-info.js';
import { taskResult } from '../conditional.js';
import { IdParams, defineRoute, ok, type RouteSpec } from '../route.js';

const T = ['time tracking'];

const Session = Type.Object({
  startTime: Type.String(),
  description: Type.Optional(Type.String()),
  elapsedMinutes: Type.Integer(),
});
const TaskRef = Type.Object({
  id: Type.String(),
  title: Type.String(),
  status: Type.String(),
  priority: Type.String(),
});

const TaskTime = Type.Object({
  task: TaskRef,
  summary: Type.Object({
    totalMinutes: Type.Integer(),
    totalHours: Type.Number(),
    totalSessions: Type.Integer(),
    completedSessions: Type.Integer(),
    activeSessions: Type.Integer(),
    averageSessionMinutes: Type.Number(),
  }),
  activeSession: Type.Union([Session, Type.Null()]),
  timeEntries: Type.Array(
    Type.Object({
      startTime: Type.String(),
      endTime: Type.Union([Type.String(), Type.Null()]),
      description: Type.Union([Type.String(), Type.Null()]),
      duration: Type.Integer({ description: 'Whole minutes; a running entry counts up to now' }),
      isActive: Type.Boolean(),
    }),
  ),
});

const ActiveSessions = Type.Object({
  activeSessions: Type.Array(
    Type.Object({
      task: Type.Object({
        ...TaskRef.properties,
        tags: Type.Array(Type.String()),
        projects: Type.Array(Type.String()),
      }),
      session: Session,
      elapsedMinutes: Type.Integer(),
    }),
  ),
  totalActiveSessions: Type.Integer(),
  totalElapsedMinutes: Type.Integer(),
});

const Summary = Type.Object({
  period: Type.String(),
  dateRange: Type.Object({ from: Type.String(), to: Type.String() }),
  summary: Type.Object({
    totalMinutes: Type.Integer(),
    totalHours: Type.Number(),
    tasksWithTime: Type.Integer(),
    activeTasks: Type.Integer(),
    completedTasks: Type.Integer(),
  }),
  topTasks: Type.Array(Type.Object({ task: Type.String(), title: Type.String(), minutes: Type.Integer() })),
  topProjects: Type.Array(Type.Object({ project: Type.String(), minutes: Type.Integer() })),
  topTags: Type.Array(Type.Object({ tag: Type.String(), minutes: Type.Integer() })),
});

const SummaryQuery = Type.Object({
  period: Type.Optional(
    Type.String({
      description: 'today (default), week (since Sunday), month, all; any other value uses from/to',
    }),
  ),
  from: Type.Optional(Type.String({ description: 'Start (date or ISO datetime) for a custom period' })),
  to: Type.Optional(Type.String({ description: 'End for a custom period; used only with from' })),
});

export const timeRoutes: RouteSpec[] = [
  defineRoute({
    method: 'POST',
    url: '/api/tasks/:id/time/start',
    summary: 'Start time tracking on a task',
    description: 'Appends a running entry ("Work session") to timeEntries. Emits time.started.',
    tags: T,
    params: IdParams,
    responses: { 200: TaskInfoSchema },
    handler: async ({ params }, ctx) => taskResult(ctx, (await ctx.services.time.start(params.id)).task),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/tasks/:id/time/start-with-description',
    summary: 'Start tracking with a description',
    description:
      'Like start, with the entry description from the body. Emits time.started, then task.updated when a description was given.',
    tags: T,
    params: IdParams,
    body: Type.Object({ description: Type.Optional(Type.String()) }),
    responses: { 200: Type.Object({ task: TaskInfoSchema, message: Type.String() }) },
    handler: async ({ params, body }, ctx) => {
      const { task } = await ctx.services.time.start(params.id, body.description);
      const message = body.description
        ? `Time tracking started with description: ${body.description}`
        : 'Time tracking started';
      return taskResult(ctx, task, { task, message });
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/tasks/:id/time/stop',
    summary: 'Stop time tracking on a task',
    description: 'Ends the running entry. Emits time.stopped with the entry that was stopped.',
    tags: T,
    params: IdParams,
    responses: { 200: TaskInfoSchema },
    handler: async ({ params }, ctx) => taskResult(ctx, (await ctx.services.time.stop(params.id)).task),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/tasks/:id/time',
    summary: 'Time entries and totals of a task',
    tags: T,
    params: IdParams,
    responses: { 200: TaskTime },
    handler: async ({ params }, ctx) => ok(await ctx.services.time.report(params.id)),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/time/active',
    summary: 'Running time sessions',
    description: 'Every task with a running entry; several tasks can track at once.',
    tags: T,
    responses: { 200: ActiveSessions },
    handler: async (_input, ctx) => ok(ctx.services.time.active()),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/time/summary',
    summary: 'Tracked time summary',
    description:
      'Entries count when their start lies in the range, with their whole duration. Invalid from/to: 400.',
    tags: T,
    querystring: SummaryQuery,
    responses: { 200: Summary },
    handler: async ({ query }, ctx) => ok(ctx.services.time.summary(query)),
  }),
];
