/** Natural-language routes (the TaskNotes plugin; docs/api-decisions.md for the create event). */
import { Type } from '@sinclair/typebox';
import { TEXT_REQUIRED } from '../../core/nlp/nlp-service.js';
import { CreateTaskBodySchema, TaskInfoSchema } from '../../core/tasks/task-fields.js';
import { created, defineRoute, ok, type RouteSpec } from '../route.js';

const T = ['nlp'];

const NlpBody = Type.Object(
  {
    text: Type.String({
      minLength: 1,
      errorMessage: TEXT_REQUIRED,
      description: 'Free text, at most 10,000 characters; first line is parsed, the rest becomes details',
    }),
    referenceDate: Type.Optional(
      Type.String({
        description: 'ISO 8601 instant that relative phrases are read against (default: now)',
        errorMessage: 'referenceDate must be an ISO 8601 date or date-time',
      }),
    ),
  },
  { additionalProperties: true },
);

const Parsed = Type.Object(
  {
    title: Type.String(),
    details: Type.Optional(Type.String()),
    dueDate: Type.Optional(Type.String({ description: 'YYYY-MM-DD' })),
    dueTime: Type.Optional(Type.String({ description: 'HH:mm' })),
    scheduledDate: Type.Optional(Type.String({ description: 'YYYY-MM-DD' })),
    scheduledTime: Type.Optional(Type.String({ description: 'HH:mm' })),
    priority: Type.Optional(Type.String()),
    status: Type.Optional(Type.String()),
    tags: Type.Array(Type.String()),
    contexts: Type.Array(Type.String()),
    projects: Type.Array(Type.String()),
    recurrence: Type.Optional(Type.String({ description: 'RRULE body, e.g. FREQ=WEEKLY;BYDAY=MO' })),
    estimate: Type.Optional(Type.Number({ description: 'Minutes' })),
    userFields: Type.Optional(
      Type.Record(Type.String(), Type.Union([Type.String(), Type.Array(Type.String()), Type.Boolean()]), {
        description: 'Keyed by user-field id',
      }),
    ),
  },
  { description: 'Parser output; absent fields are omitted' },
);

/** The POST /api/tasks body that create would send: a subset of that body's schema. */
const TaskData = Type.Composite(
  [
    Type.Pick(CreateTaskBodySchema, ['title']),
    Type.Required(Type.Pick(CreateTaskBodySchema, ['status', 'priority', 'dateCreated', 'dateModified'])),
    Type.Pick(CreateTaskBodySchema, [
      'due',
      'scheduled',
      'tags',
      'contexts',
      'projects',
      'details',
      'recurrence',
      'timeEstimate',
      'customFrontmatter',
    ]),
  ],
  { description: 'The POST /api/tasks body that create would send' },
);

export const nlpRoutes: RouteSpec[] = [
  defineRoute({
    method: 'POST',
    url: '/api/nlp/parse',
    summary: 'Parse text into task fields',
    description: "Side-effect free. The parser is configured from the vault's TaskNotes settings.",
    tags: T,
    body: NlpBody,
    responses: { 200: Type.Object({ parsed: Parsed, taskData: TaskData }) },
    handler: async ({ body }, ctx) =>
      ok(await ctx.services.nlp.parse(body.text, { referenceDate: body.referenceDate })),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/nlp/create',
    summary: 'Create a task from text',
    description:
      'Parses like /api/nlp/parse, then creates the task like POST /api/tasks. Emits task.created with source "nlp" and originalText.',
    tags: T,
    body: NlpBody,
    responses: { 201: Type.Object({ task: TaskInfoSchema, parsed: Parsed }) },
    handler: async ({ body }, ctx) =>
      created(await ctx.services.nlp.create(body.text, { referenceDate: body.referenceDate })),
  }),
];
