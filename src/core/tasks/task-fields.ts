/**
 * The task fields, written once. Each row says where the field lives in frontmatter (its
 * field-mapping key), how a raw frontmatter value is read (`kind`), its type in the read shape,
 * the value a create or update request may send, and whether create and PUT accept it. From this
 * table come the TaskInfo schema, the POST and PUT body schemas (and so the OpenAPI document), the
 * set of keys PUT may change, the order keys are written in a new note, and the frontmatter read.
 *
 * Row order is the key order of a new note's frontmatter (the TaskNotes plugin's order, see
 * docs/task-model.md); the title row comes first because a kept title is written first.
 */
import {
  Type,
  type Static,
  type TNull,
  type TOptional,
  type TSchema,
  type TString,
  type TUnion,
} from '@sinclair/typebox';
import type { FieldMapping } from './field-mapping.js';

/** How a raw frontmatter value becomes the read-shape value (field-mapping.ts `normalizeField`). */
export type FieldKind =
  | 'string'
  | 'list'
  | 'number'
  | 'enum'
  | 'instances'
  | 'attachments'
  | 'dependencies'
  | 'timeEntries'
  | 'reminders'
  | 'tags'
  | 'archived';

/** One row of the table; the property name is the row's key. */
interface FieldSpec {
  /** Field-mapping entry naming the frontmatter key; absent for `tags` (fixed key) and `archived` (a tag). */
  mapping?: keyof FieldMapping;
  kind: FieldKind;
  /** Type in the read shape. */
  read: TSchema;
  /** In every read shape (else only when the note has a value). */
  always?: boolean;
  /** Type of the value a create or update request sends. */
  input: TSchema;
  /** POST /api/tasks accepts it. */
  create: boolean;
  /** PUT /api/tasks/:id accepts it; `null`, a blank string or `[]` deletes the field unless `keep`. */
  update: boolean;
  /** The field cannot be deleted by PUT (no `null` in its update type). */
  keep?: boolean;
  /** Allowed values of an enum field. */
  values?: readonly string[];
  description?: string;
  /** A valid value, for documentation and tests. */
  example: unknown;
}

export type TaskField = FieldSpec & {
  /** Read-shape property and request body key. */
  prop: string;
};

const Str = Type.String();
const StrList = Type.Array(Type.String());

export const TimeEntrySchema = Type.Object(
  {
    startTime: Type.String({ description: 'UTC ISO 8601 timestamp' }),
    endTime: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);

export const ReminderSchema = Type.Object(
  {
    id: Type.String(),
    type: Type.String({ description: '"absolute" or "relative"' }),
    relatedTo: Type.Optional(Type.String({ description: '"due" or "scheduled" (relative reminders)' })),
    offset: Type.Optional(Type.String({ description: 'ISO 8601 duration, may start with "-"' })),
    absoluteTime: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);

export const DependencySchema = Type.Object({
  uid: Type.String(),
  reltype: Type.String(),
  gap: Type.Optional(Type.String()),
});

const DependencyInput = Type.Union([
  Type.String(),
  Type.Object({
    uid: Type.String(),
    reltype: Type.Optional(Type.String()),
    gap: Type.Optional(Type.String()),
  }),
]);
const ObjectList = Type.Array(Type.Object({}, { additionalProperties: true }));
const enumOf = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));

export const RECURRENCE_ANCHORS = ['scheduled', 'completion'] as const;
export const MATERIALIZATION_POLICIES = ['manual', 'on_completion', 'rolling'] as const;
export const NEXT_TRIGGERS = ['completion', 'completion_or_skip'] as const;

const DATE = 'YYYY-MM-DD or YYYY-MM-DDTHH:mm[:ss][offset]';

const FIELDS = {
  title: {
    mapping: 'title',
    kind: 'string',
    read: Str,
    always: true,
    input: Str,
    create: true,
    update: true,
    keep: true,
    example: 'Write the report',
  },
  status: {
    mapping: 'status',
    kind: 'string',
    read: Str,
    always: true,
    input: Str,
    create: true,
    update: true,
    keep: true,
    description: 'One of the configured statuses (a label or a differently cased value is accepted)',
    example: 'in-progress',
  },
  priority: {
    mapping: 'priority',
    kind: 'string',
    read: Str,
    always: true,
    input: Str,
    create: true,
    update: true,
    keep: true,
    description: 'One of the configured priorities',
    example: 'high',
  },
  due: {
    mapping: 'due',
    kind: 'string',
    read: Str,
    input: Str,
    create: true,
    update: true,
    description: DATE,
    example: '2026-03-01',
  },
  scheduled: {
    mapping: 'scheduled',
    kind: 'string',
    read: Str,
    input: Str,
    create: true,
    update: true,
    description: DATE,
    example: '2026-02-27T09:30',
  },
  contexts: {
    mapping: 'contexts',
    kind: 'list',
    read: StrList,
    always: true,
    input: StrList,
    create: true,
    update: true,
    example: ['office'],
  },
  projects: {
    mapping: 'projects',
    kind: 'list',
    read: StrList,
    always: true,
    input: StrList,
    create: true,
    update: true,
    description: 'Links to project notes, e.g. "[[Launch]]"',
    example: ['[[Launch]]'],
  },
  attachments: {
    mapping: 'attachments',
    kind: 'attachments',
    read: StrList,
    input: StrList,
    create: true,
    update: true,
    description: 'Links to files with their extension, e.g. "[[Files/plan.pdf]]"',
    example: ['[[Files/plan.pdf]]'],
  },
  timeEstimate: {
    mapping: 'timeEstimate',
    kind: 'number',
    read: Type.Number({ description: 'Minutes' }),
    input: Type.Number({ description: 'Minutes, not negative' }),
    create: true,
    update: true,
    example: 45,
  },
  completedDate: {
    mapping: 'completedDate',
    kind: 'string',
    read: Str,
    input: Str,
    create: true,
    update: true,
    description: 'YYYY-MM-DD; set and cleared with the status of a non-recurring task',
    example: '2026-02-26',
  },
  recurrence: {
    mapping: 'recurrence',
    kind: 'string',
    read: Str,
    input: Str,
    create: true,
    update: true,
    description: 'RRULE, e.g. FREQ=WEEKLY;BYDAY=MO (DTSTART is added from scheduled when missing)',
    example: 'FREQ=WEEKLY;BYDAY=MO',
  },
  recurrence_anchor: {
    mapping: 'recurrenceAnchor',
    kind: 'enum',
    values: RECURRENCE_ANCHORS,
    read: Str,
    input: enumOf(RECURRENCE_ANCHORS),
    create: true,
    update: true,
    example: 'completion',
  },
  recurrence_parent: {
    mapping: 'recurrenceParent',
    kind: 'string',
    read: Str,
    input: Str,
    create: true,
    update: true,
    description: 'Link to the recurring task this note is an occurrence of',
    example: '[[Weekly review]]',
  },
  occurrence_date: {
    mapping: 'occurrenceDate',
    kind: 'string',
    read: Str,
    input: Str,
    create: true,
    update: true,
    description: 'YYYY-MM-DD of the occurrence',
    example: '2026-03-02',
  },
  occurrence_materialization: {
    mapping: 'occurrenceMaterialization',
    kind: 'enum',
    values: MATERIALIZATION_POLICIES,
    read: Str,
    input: enumOf(MATERIALIZATION_POLICIES),
    create: true,
    update: true,
    description: MATERIALIZATION_POLICIES.join(' | '),
    example: 'on_completion',
  },
  occurrence_next_trigger: {
    mapping: 'occurrenceNextTrigger',
    kind: 'enum',
    values: NEXT_TRIGGERS,
    read: Str,
    input: enumOf(NEXT_TRIGGERS),
    create: true,
    update: true,
    description: NEXT_TRIGGERS.join(' | '),
    example: 'completion_or_skip',
  },
  occurrence_template: {
    mapping: 'occurrenceTemplate',
    kind: 'string',
    read: Str,
    input: Str,
    create: true,
    update: true,
    description: 'Link to the template of occurrence notes',
    example: '[[Templates/Occurrence]]',
  },
  occurrence_past_horizon: {
    mapping: 'occurrencePastHorizon',
    kind: 'string',
    read: Str,
    input: Str,
    create: true,
    update: true,
    description: 'ISO 8601 duration',
    example: 'P0D',
  },
  occurrence_future_horizon: {
    mapping: 'occurrenceFutureHorizon',
    kind: 'string',
    read: Str,
    input: Str,
    create: true,
    update: true,
    description: 'ISO 8601 duration',
    example: 'P14D',
  },
  dateCreated: {
    mapping: 'dateCreated',
    kind: 'string',
    read: Str,
    input: Str,
    create: true,
    update: true,
    keep: true,
    description: 'ISO 8601 timestamp; set by the server on create when absent',
    example: '2026-02-20T09:00:00.000+01:00',
  },
  dateModified: {
    mapping: 'dateModified',
    kind: 'string',
    read: Str,
    input: Str,
    create: true,
    update: false,
    description: 'ISO 8601 timestamp; every change sets it to the server time',
    example: '2026-02-20T09:00:00.000+01:00',
  },
  sortOrder: {
    mapping: 'sortOrder',
    kind: 'string',
    read: Str,
    input: Str,
    create: true,
    update: true,
    description: 'Manual order rank (a string that sorts)',
    example: '0|hzzzzz:',
  },
  timeEntries: {
    mapping: 'timeEntries',
    kind: 'timeEntries',
    read: Type.Array(TimeEntrySchema),
    input: ObjectList,
    create: true,
    update: true,
    description: 'At most one entry without endTime; endTime not before startTime',
    example: [{ startTime: '2026-02-20T09:00:00Z', endTime: '2026-02-20T09:30:00Z', description: 'Draft' }],
  },
  complete_instances: {
    mapping: 'completeInstances',
    kind: 'instances',
    read: StrList,
    input: StrList,
    create: true,
    update: true,
    description: 'YYYY-MM-DD days completed of a recurring task',
    example: ['2026-02-16'],
  },
  skipped_instances: {
    mapping: 'skippedInstances',
    kind: 'instances',
    read: StrList,
    input: StrList,
    create: true,
    update: true,
    description: 'YYYY-MM-DD days skipped of a recurring task (never also completed)',
    example: ['2026-02-23'],
  },
  blockedBy: {
    mapping: 'blockedBy',
    kind: 'dependencies',
    read: Type.Array(DependencySchema),
    input: Type.Array(DependencyInput),
    create: true,
    update: true,
    description: 'Read with bare uids; written as wikilinks. reltype FINISHTOSTART by default',
    example: [{ uid: '[[Design the API]]', reltype: 'FINISHTOSTART' }],
  },
  icsEventId: {
    mapping: 'icsEventId',
    kind: 'list',
    read: StrList,
    input: StrList,
    create: true,
    update: true,
    example: ['event-1@example.com'],
  },
  googleCalendarEventId: {
    mapping: 'googleCalendarEventId',
    kind: 'string',
    read: Str,
    input: Str,
    create: true,
    update: true,
    example: 'abc123',
  },
  googleCalendarExceptionEventId: {
    mapping: 'googleCalendarExceptionEventId',
    kind: 'string',
    read: Str,
    input: Str,
    create: true,
    update: true,
    example: 'abc123_20260302',
  },
  googleCalendarExceptionOriginalScheduled: {
    mapping: 'googleCalendarExceptionOriginalScheduled',
    kind: 'string',
    read: Str,
    input: Str,
    create: true,
    update: true,
    example: '2026-03-02',
  },
  googleCalendarMovedOriginalDates: {
    mapping: 'googleCalendarMovedOriginalDates',
    kind: 'list',
    read: StrList,
    input: StrList,
    create: true,
    update: true,
    example: ['2026-03-09'],
  },
  reminders: {
    mapping: 'reminders',
    kind: 'reminders',
    read: Type.Array(ReminderSchema),
    input: ObjectList,
    create: true,
    update: true,
    description: 'Entries without an id get one when written',
    example: [{ id: 'r1', type: 'relative', relatedTo: 'due', offset: '-PT1H' }],
  },
  tags: {
    kind: 'tags',
    read: StrList,
    always: true,
    input: StrList,
    create: true,
    update: true,
    description: 'The task tag is always kept; the archive tag follows `archived`',
    example: ['writing'],
  },
  archived: {
    kind: 'archived',
    read: Type.Boolean(),
    always: true,
    input: Type.Boolean(),
    create: false,
    update: true,
    keep: true,
    description: 'Adds or removes the archive tag',
    example: true,
  },
} satisfies Record<string, FieldSpec>;

type Fields = typeof FIELDS;

/** The rows in table order. */
export const TASK_FIELDS: readonly TaskField[] = Object.entries(FIELDS).map(([prop, spec]) => ({
  prop,
  ...(spec as FieldSpec),
}));

const BY_PROP = new Map(TASK_FIELDS.map((field) => [field.prop, field]));

export function taskField(prop: string): TaskField | undefined {
  return BY_PROP.get(prop);
}

/** Fields stored under a mapped frontmatter key (all but `tags` and `archived`). */
export const MAPPED_FIELDS = TASK_FIELDS.filter(
  (f): f is TaskField & { mapping: keyof FieldMapping } => f.mapping !== undefined,
);

/** Body keys of PUT that change a task field (user-field keys and the extras below come on top). */
export const UPDATABLE_FIELDS: ReadonlySet<string> = new Set(
  TASK_FIELDS.filter((f) => f.update).map((f) => f.prop),
);

/** The frontmatter key of a read-shape property, or undefined when it has none. */
export function frontmatterKeyOf(mapping: FieldMapping, prop: string): string | undefined {
  const key = BY_PROP.get(prop)?.mapping;
  return key === undefined ? undefined : mapping[key];
}

const described = <S extends TSchema>(schema: S, field: FieldSpec): S =>
  field.description === undefined ? schema : { ...schema, description: field.description };

// The schemas below are built from the rows; these mapped types give them the static types
// TypeBox would infer from the same object written out by hand.
type ReadProps = {
  [K in keyof Fields]: Fields[K] extends { always: true } ? Fields[K]['read'] : TOptional<Fields[K]['read']>;
};
type CreateKeys = { [K in keyof Fields]: Fields[K]['create'] extends true ? K : never }[keyof Fields];
type NullOnCreate = 'due' | 'scheduled' | 'recurrence';
type CreateProps = {
  [K in CreateKeys]: K extends 'title'
    ? TString
    : K extends NullOnCreate
      ? TOptional<TUnion<[Fields[K]['input'], TNull]>>
      : TOptional<Fields[K]['input']>;
};
type UpdateKeys = { [K in keyof Fields]: Fields[K]['update'] extends true ? K : never }[keyof Fields];
type UpdateProps = {
  [K in UpdateKeys]: Fields[K] extends { keep: true }
    ? TOptional<Fields[K]['input']>
    : TOptional<TUnion<[Fields[K]['input'], TNull]>>;
};

function readProperties(): ReadProps {
  const props: Record<string, TSchema> = {};
  for (const field of TASK_FIELDS) {
    const schema = described(field.read, field);
    props[field.prop] = field.always ? schema : Type.Optional(schema);
  }
  return props as ReadProps;
}

function createProperties(): CreateProps {
  const props: Record<string, TSchema> = {};
  for (const field of TASK_FIELDS) {
    if (!field.create) continue;
    const schema = described(field.input, field);
    // due, scheduled and recurrence may be null on create: "no value, not even the default".
    const nullable = field.prop === 'due' || field.prop === 'scheduled' || field.prop === 'recurrence';
    props[field.prop] =
      field.prop === 'title'
        ? Type.String({ errorMessage: 'Title is required' })
        : Type.Optional(nullable ? Type.Union([schema, Type.Null()]) : schema);
  }
  return props as CreateProps;
}

function updateProperties(): UpdateProps {
  const props: Record<string, TSchema> = {};
  for (const field of TASK_FIELDS) {
    if (!field.update) continue;
    const schema = described(field.input, field);
    props[field.prop] = Type.Optional(field.keep ? schema : Type.Union([schema, Type.Null()]));
  }
  return props as UpdateProps;
}

/** Read-shape properties computed by the server, never stored. */
const COMPUTED = {
  totalTrackedTime: Type.Number({ description: 'Minutes' }),
  isBlocked: Type.Boolean(),
  isBlocking: Type.Boolean(),
  blocking: Type.Optional(Type.Array(Type.String(), { description: 'Paths of tasks this one blocks' })),
  customProperties: Type.Optional(
    Type.Record(Type.String(), Type.Unknown(), { description: 'Configured user fields present in the note' }),
  ),
  details: Type.Optional(Type.String({ description: 'Note body; only on single-task reads' })),
};

/**
 * TaskInfo: the JSON shape of a task in API responses and event payloads. User fields appear both
 * under `customProperties` and at the top level, so the object is open.
 */
export const TaskInfoSchema = Type.Object(
  {
    id: Type.String({ description: 'Vault-relative path including .md (equal to path)' }),
    path: Type.String(),
    ...readProperties(),
    ...COMPUTED,
  },
  { additionalProperties: true, $id: 'Task' },
);

const Extras = {
  details: Type.String({ description: 'Note body (Markdown)' }),
  customProperties: Type.Record(Type.String(), Type.Unknown(), {
    description: 'Values of configured user fields, by key (a top-level key of the same name wins)',
  }),
  customFrontmatter: Type.Record(Type.String(), Type.Unknown(), {
    description: 'Raw frontmatter keys written as given; null removes a key',
  }),
};

/** POST /api/tasks body. */
export const CreateTaskBodySchema = Type.Object(
  {
    ...createProperties(),
    details: Type.Optional(Extras.details),
    customProperties: Type.Optional(Extras.customProperties),
    customFrontmatter: Type.Optional(Extras.customFrontmatter),
    creationContext: Type.Optional(Type.String()),
  },
  {
    additionalProperties: true,
    // A body that is not an object has no title.
    errorMessage: 'Title is required',
    description: 'Unknown keys are ignored, except configured user-field keys.',
  },
);

/** PUT /api/tasks/:id body. */
export const UpdateTaskBodySchema = Type.Object(
  {
    ...updateProperties(),
    details: Type.Optional(Type.Union([Extras.details, Type.Null()])),
    customProperties: Type.Optional(Extras.customProperties),
    customFrontmatter: Type.Optional(Extras.customFrontmatter),
  },
  {
    additionalProperties: true,
    description:
      'Partial update. `null`, a blank string or `[]` deletes a field; `customFrontmatter` sets raw keys ' +
      '(`null` deletes). Unknown keys are ignored, except configured user-field keys.',
  },
);

/** A POST /api/tasks body as the service takes it (user-field keys may come on top). */
export type TaskCreateInput = Static<typeof CreateTaskBodySchema> & Record<string, unknown>;
/** A PUT body as the service takes it. */
export type TaskUpdateInput = Static<typeof UpdateTaskBodySchema> & Record<string, unknown>;
