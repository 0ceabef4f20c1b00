/**
 * TaskInfo: the JSON shape of a task in API responses and event payloads. The schema is built from
 * the field table (task-fields.ts), so the TypeScript type, the OpenAPI document and the webhook
 * catalogue share it.
 */
import type { Static } from '@sinclair/typebox';
import { DependencySchema, ReminderSchema, TaskInfoSchema, TimeEntrySchema } from './task-fields.js';

export { DependencySchema, ReminderSchema, TaskInfoSchema, TimeEntrySchema };

export type TimeEntry = Static<typeof TimeEntrySchema>;
export type Reminder = Static<typeof ReminderSchema>;
export type Dependency = Static<typeof DependencySchema>;
export type TaskInfo = Static<typeof TaskInfoSchema>;
