/**
 * TaskInfo: the JSON shape of a task in API responses and event payloads (reference tasks.md §4.1).
 * One schema serves the TypeScript type, the OpenAPI document and the webhook catalogue.
 * User fields appear both under `customProperties` and at the top level, so the object is open.
 */
import { Type, type Static } from '@sinclair/typebox';

const StringList = Type.Array(Type.String());

export const TimeEntrySchema = Type.Object(
  {
    startTime: Type.String({ description: 'UTC ISO 8601 timestamp' }),
    endTime: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);
export type TimeEntry = Static<typeof TimeEntrySchema>;

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
export type Reminder = Static<typeof ReminderSchema>;

export const DependencySchema = Type.Object({
  uid: Type.String(),
  reltype: Type.String(),
  gap: Type.Optional(Type.String()),
});
export type Dependency = Static<typeof DependencySchema>;

export const TaskInfoSchema = Type.Object(
  {
    id: Type.String({ description: 'Vault-relative path including .md (equal to path)' }),
    path: Type.String(),
    title: Type.String(),
    status: Type.String(),
    priority: Type.String(),
    archived: Type.Boolean(),
    tags: StringList,
    contexts: StringList,
    projects: StringList,
    totalTrackedTime: Type.Number({ description: 'Minutes' }),
    isBlocked: Type.Boolean(),
    isBlocking: Type.Boolean(),
    due: Type.Optional(Type.String()),
    scheduled: Type.Optional(Type.String()),
    completedDate: Type.Optional(Type.String()),
    dateCreated: Type.Optional(Type.String()),
    dateModified: Type.Optional(Type.String()),
    timeEstimate: Type.Optional(Type.Number({ description: 'Minutes' })),
    recurrence: Type.Optional(Type.String()),
    recurrence_anchor: Type.Optional(Type.String()),
    complete_instances: Type.Optional(StringList),
    skipped_instances: Type.Optional(StringList),
    recurrence_parent: Type.Optional(Type.String()),
    occurrence_date: Type.Optional(Type.String()),
    occurrence_materialization: Type.Optional(
      Type.String({ description: 'manual | on_completion | rolling' }),
    ),
    occurrence_next_trigger: Type.Optional(Type.String({ description: 'completion | completion_or_skip' })),
    occurrence_template: Type.Optional(Type.String()),
    occurrence_past_horizon: Type.Optional(Type.String({ description: 'ISO 8601 duration' })),
    occurrence_future_horizon: Type.Optional(Type.String({ description: 'ISO 8601 duration' })),
    attachments: Type.Optional(StringList),
    timeEntries: Type.Optional(Type.Array(TimeEntrySchema)),
    reminders: Type.Optional(Type.Array(ReminderSchema)),
    blockedBy: Type.Optional(Type.Array(DependencySchema)),
    blocking: Type.Optional(StringList),
    icsEventId: Type.Optional(StringList),
    sortOrder: Type.Optional(Type.String()),
    customProperties: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    details: Type.Optional(Type.String({ description: 'Note body; only on single-task reads' })),
  },
  { additionalProperties: true, $id: 'Task' },
);
export type TaskInfo = Static<typeof TaskInfoSchema>;
