/** Pomodoro routes (as in the TaskNotes plugin). The pomodoro service emits the events. */
import { Type } from '@sinclair/typebox';
import { validateDateString } from '../../core/dates/parse.js';
import { invalid } from '../../core/errors.js';
import {
  DURATION_RULE,
  HistoryEntrySchema,
  PomodoroSessionSchema,
  SessionTypeSchema,
} from '../../core/pomodoro/model.js';
import { POMODORO_MESSAGES } from '../../core/pomodoro/pomodoro-service.js';
import { TaskInfoSchema } from '../../core/tasks/task-info.js';
import { defineRoute, ok, type RouteSpec } from '../route.js';

const T = ['pomodoro'];
const DURATION_MESSAGE = 'duration must be a number of minutes';
const DATE_MESSAGE = 'date must be a calendar day as YYYY-MM-DD';

const StartBody = Type.Object({
  taskId: Type.Optional(
    Type.String({ description: 'Vault path of the task to track', errorMessage: 'taskId must be a string' }),
  ),
  duration: Type.Optional(
    Type.Union(
      [Type.Number({ errorMessage: DURATION_MESSAGE }), Type.String({ errorMessage: DURATION_MESSAGE })],
      {
        description: `${DURATION_RULE}. Default: the work length.`,
      },
    ),
  ),
});

const DateQuery = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', errorMessage: DATE_MESSAGE });

/** Minutes from a number or numeric text; anything else is a 400 rather than a silent default. */
function minutesOf(duration: number | string | undefined): number | undefined {
  if (duration === undefined || typeof duration === 'number') return duration;
  const value = duration.trim() === '' ? Number.NaN : Number(duration);
  if (!Number.isFinite(value)) throw invalid(DURATION_MESSAGE, { field: 'duration' });
  return value;
}

const day = (date: string | undefined): string | undefined =>
  date === undefined ? undefined : (validateDateString(date), date);

const Message = Type.Object({ message: Type.String() });
const Remaining = Type.Object({
  timeRemaining: Type.Number({ description: 'Seconds' }),
  message: Type.String(),
});

export const pomodoroRoutes: RouteSpec[] = [
  defineRoute({
    method: 'POST',
    url: '/api/pomodoro/start',
    summary: 'Start a pomodoro session',
    description:
      'Starts a work session, optionally tracking time on a task. Emits time.started (with a task) and pomodoro.started. ' +
      'Unknown taskId: 404. A running or paused session: 400.',
    tags: T,
    body: StartBody,
    responses: {
      200: Type.Object({
        session: PomodoroSessionSchema,
        task: Type.Union([TaskInfoSchema, Type.Null()]),
        message: Type.String(),
      }),
    },
    handler: async ({ body }, ctx) => {
      const minutes = minutesOf(body.duration);
      const started = await ctx.services.pomodoro.start({ taskPath: body.taskId, minutes });
      return ok({ ...started, message: POMODORO_MESSAGES.started });
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/pomodoro/stop',
    summary: 'Stop the current session',
    description: 'Interrupts the running or paused session. Emits pomodoro.interrupted, then time.stopped.',
    tags: T,
    responses: { 200: Message },
    handler: async (_input, ctx) => {
      await ctx.services.pomodoro.stop();
      return ok({ message: POMODORO_MESSAGES.stopped });
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/pomodoro/pause',
    summary: 'Pause the running session',
    description: 'No body. Paused time does not count; time tracking on the task stops (time.stopped).',
    tags: T,
    responses: { 200: Remaining },
    handler: async (_input, ctx) =>
      ok({ ...(await ctx.services.pomodoro.pause()), message: POMODORO_MESSAGES.paused }),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/pomodoro/resume',
    summary: 'Resume a paused session',
    description: 'No body. Opens a new active period; time tracking on the task starts (time.started).',
    tags: T,
    responses: { 200: Remaining },
    handler: async (_input, ctx) =>
      ok({ ...(await ctx.services.pomodoro.resume()), message: POMODORO_MESSAGES.resumed }),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/pomodoro/status',
    summary: 'Current pomodoro state',
    description: "totalPomodoros, currentStreak and totalMinutesToday are today's figures.",
    tags: T,
    responses: {
      200: Type.Object({
        isRunning: Type.Boolean(),
        currentSession: Type.Optional(PomodoroSessionSchema),
        timeRemaining: Type.Number({ description: 'Seconds' }),
        nextSessionType: Type.Optional(SessionTypeSchema),
        totalPomodoros: Type.Integer(),
        currentStreak: Type.Integer(),
        totalMinutesToday: Type.Integer(),
      }),
    },
    handler: async (_input, ctx) => ok(ctx.services.pomodoro.status()),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/pomodoro/sessions',
    summary: 'Session history',
    description: 'Oldest first. `date` keeps one local day; `limit` > 0 keeps the most recent N.',
    tags: T,
    querystring: Type.Object({ date: Type.Optional(DateQuery), limit: Type.Optional(Type.Integer()) }),
    responses: { 200: Type.Object({ sessions: Type.Array(HistoryEntrySchema), total: Type.Integer() }) },
    handler: async ({ query }, ctx) =>
      ok(ctx.services.pomodoro.sessions({ date: day(query.date), limit: query.limit })),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/pomodoro/stats',
    summary: 'Pomodoro statistics',
    description: 'Work sessions of one local day (today by default).',
    tags: T,
    querystring: Type.Object({ date: Type.Optional(DateQuery) }),
    responses: {
      200: Type.Object({
        pomodorosCompleted: Type.Integer(),
        currentStreak: Type.Integer(),
        totalMinutes: Type.Integer(),
        averageSessionLength: Type.Integer(),
        completionRate: Type.Integer(),
      }),
    },
    handler: async ({ query }, ctx) => ok(ctx.services.pomodoro.stats(day(query.date))),
  }),
];
