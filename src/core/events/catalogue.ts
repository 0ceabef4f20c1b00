/**
 * The event catalogue: the 14 event names of the interface and the shape of each one's `data`, plus
 * `webhook.ping`, the test event a user sends to one webhook. This table is the single source
 * for the bus's types, the webhook name validation, the settings page's event list, the event
 * journal and the OpenAPI `webhooks` section.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { TaskInfoSchema, TimeEntrySchema, ReminderSchema } from '../tasks/task-info.js';

const Task = TaskInfoSchema;
const Open = <T extends TSchema>(schema: T): T => ({ ...schema, additionalProperties: true });

const PomodoroSession = Type.Object(
  {
    id: Type.String(),
    type: Type.String({ description: 'work | short-break | long-break' }),
    startTime: Type.String(),
    endTime: Type.Optional(Type.String()),
    plannedDuration: Type.Number({ description: 'Minutes' }),
    completed: Type.Boolean(),
    interrupted: Type.Optional(Type.Boolean()),
    taskPath: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);

export const EVENT_CATALOGUE = {
  'task.created': {
    summary: 'A task note was created (API, NLP, materialize, or another program).',
    data: Type.Object({
      task: Task,
      source: Type.Optional(Type.Literal('nlp')),
      originalText: Type.Optional(Type.String()),
    }),
  },
  'task.updated': {
    summary: 'A task changed (anything except a move into a completed status or an archive toggle).',
    data: Type.Object({ task: Task, previous: Task }),
  },
  'task.deleted': { summary: 'A task note was deleted.', data: Type.Object({ task: Task }) },
  'task.completed': {
    summary: 'A task moved into a completed status.',
    data: Type.Object({ task: Task }),
  },
  'task.archived': { summary: 'A task was archived.', data: Type.Object({ task: Task }) },
  'task.unarchived': { summary: 'A task was unarchived.', data: Type.Object({ task: Task }) },
  'time.started': {
    summary: 'Time tracking started on a task.',
    data: Type.Object({ task: Task, session: TimeEntrySchema }),
  },
  'time.stopped': {
    summary: 'Time tracking stopped on a task; `session` is the entry that was stopped.',
    data: Type.Object({ task: Task, session: TimeEntrySchema }),
  },
  'pomodoro.started': {
    summary: 'A pomodoro work session or break began.',
    data: Type.Object({ session: PomodoroSession, task: Type.Union([Task, Type.Null()]) }),
  },
  'pomodoro.completed': {
    summary: 'A pomodoro session ran its full duration.',
    data: Type.Object({ session: PomodoroSession, task: Type.Union([Task, Type.Null()]) }),
  },
  'pomodoro.interrupted': {
    summary: 'A pomodoro session was stopped before its end.',
    data: Type.Object({ session: PomodoroSession, task: Type.Union([Task, Type.Null()]) }),
  },
  'recurring.instance.completed': {
    summary: 'One instance of a recurring task was marked complete.',
    data: Open(
      Type.Object({
        task: Task,
        date: Type.String({ description: 'YYYY-MM-DD of the instance' }),
        occurrence: Type.Optional(Task),
        targetDate: Type.Optional(Type.String()),
      }),
    ),
  },
  'recurring.instance.skipped': {
    summary: 'A virtual instance of a recurring task was skipped.',
    data: Type.Object({ task: Task, date: Type.String() }),
  },
  'reminder.triggered': {
    summary: 'A task reminder became due.',
    data: Type.Object({
      task: Task,
      reminder: ReminderSchema,
      notificationTime: Type.String(),
      message: Type.String(),
      notificationType: Type.String(),
    }),
  },
} as const;

/**
 * Not subscribable: sent to one webhook on request (POST /api/webhooks/:id/ping), whatever its
 * events; journaled like the others, so event-stream clients see it too.
 */
export const PING_EVENT = {
  'webhook.ping': {
    summary: 'A test event sent to one webhook on request, whatever events it subscribes to.',
    data: Type.Object({ webhookId: Type.String() }),
  },
} as const;

export type EventName = keyof typeof EVENT_CATALOGUE;
export type EventData<E extends EventName> = Static<(typeof EVENT_CATALOGUE)[E]['data']>;
export const EVENT_NAMES = Object.keys(EVENT_CATALOGUE) as EventName[];

/** Every name that the event journal records: the 14 events and `webhook.ping`. */
export type JournalEventName = EventName | keyof typeof PING_EVENT;
export const JOURNAL_EVENT_NAMES: readonly JournalEventName[] = [...EVENT_NAMES, 'webhook.ping'];

export function isEventName(value: unknown): value is EventName {
  return typeof value === 'string' && Object.hasOwn(EVENT_CATALOGUE, value);
}
