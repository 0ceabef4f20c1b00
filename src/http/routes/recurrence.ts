/**
 * Recurring-task routes (as in the TaskNotes plugin) and Taskdown's skip/unskip additions
 * (docs/api-decisions.md). Handlers only translate: the recurrence service validates, writes and emits.
 */
import { Type } from '@sinclair/typebox';
import { DATE_REQUIRED } from '../../core/recurrence/instance-date.js';
import { TaskInfoSchema } from '../../core/tasks/task-info.js';
import { IF_MATCH_NOTE, preconditionOf, PreconditionFailedSchema, taskResult } from '../conditional.js';
import { defineRoute, IdParams, type RouteSpec } from '../route.js';

const T = ['tasks'];

const DateBody = Type.Object(
  {
    date: Type.String({
      errorMessage: DATE_REQUIRED,
      description: 'Instance day, YYYY-MM-DD (a date-time is cut to its date part)',
    }),
  },
  { additionalProperties: true, errorMessage: DATE_REQUIRED },
);

/** The creation echo of a new note (as in the TaskNotes plugin): frontmatter keys, path, tags, details. */
const CreationEcho = Type.Object(
  {},
  { additionalProperties: true, description: 'Creation echo of the new note' },
);

export const recurrenceRoutes: RouteSpec[] = [
  defineRoute({
    method: 'POST',
    url: '/api/tasks/:id/complete-instance',
    summary: 'Toggle one recurring instance',
    description:
      'Completes the instance of `date` (default: the scheduled day for the scheduled anchor, else today), ' +
      'or un-completes it when it is already complete. A materialized occurrence note of that day is ' +
      'toggled instead and returned. Emits `recurring.instance.completed` on completion. `If-Match` is about ' +
      'the task addressed (the parent):' +
      IF_MATCH_NOTE,
    tags: T,
    params: IdParams,
    body: Type.Object(
      {
        date: Type.Optional(
          Type.String({
            errorMessage: 'date must be an ISO 8601 date string',
            description: 'ISO 8601 date or date-time',
          }),
        ),
      },
      { additionalProperties: true },
    ),
    responses: { 200: TaskInfoSchema, 412: PreconditionFailedSchema },
    handler: async ({ params, body, headers }, ctx) =>
      taskResult(
        ctx,
        await ctx.services.recurrence.completeInstance(params.id, body.date, preconditionOf(headers)),
      ),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/tasks/:id/materialize-occurrence',
    summary: 'Create the occurrence note of one instance',
    description:
      'Creates a separate task note for the instance of `date` (idempotent: an existing occurrence note of ' +
      'that day is returned unchanged). Emits `task.created` when a note is created.',
    tags: T,
    params: IdParams,
    body: DateBody,
    responses: { 200: CreationEcho },
    handler: async ({ params, body }, ctx) =>
      taskResult(ctx, (await ctx.services.recurrence.materializeOccurrence(params.id, body.date)).task),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/tasks/:id/skip-instance',
    summary: 'Skip one recurring instance',
    description:
      'Adds `date` to `skipped_instances` (removing it from `complete_instances`) and moves the schedule to ' +
      'the next open instance. Emits `recurring.instance.skipped` for a virtual instance; a materialized ' +
      'occurrence note of that day is reconciled instead, without a skip event. Returns the parent.' +
      IF_MATCH_NOTE,
    tags: T,
    params: IdParams,
    body: DateBody,
    responses: { 200: TaskInfoSchema, 412: PreconditionFailedSchema },
    handler: async ({ params, body, headers }, ctx) =>
      taskResult(
        ctx,
        await ctx.services.recurrence.skipInstance(params.id, body.date, preconditionOf(headers)),
      ),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/tasks/:id/unskip-instance',
    summary: 'Undo a skip of one recurring instance',
    description:
      'Removes `date` from `skipped_instances` and recomputes the schedule. No event. Returns the parent.' +
      IF_MATCH_NOTE,
    tags: T,
    params: IdParams,
    body: DateBody,
    responses: { 200: TaskInfoSchema, 412: PreconditionFailedSchema },
    handler: async ({ params, body, headers }, ctx) =>
      taskResult(
        ctx,
        await ctx.services.recurrence.unskipInstance(params.id, body.date, preconditionOf(headers)),
      ),
  }),
];
