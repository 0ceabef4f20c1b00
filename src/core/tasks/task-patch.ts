/**
 * PUT semantics on a task draft (reference tasks.md §2.4 with the SPEC §6 fixes): which body keys
 * are task fields, null/blank/[] as "delete", status with its completedDate rule, user fields via
 * top-level keys or `customProperties`, raw keys via `customFrontmatter`, DTSTART for a rule that
 * lacks one, registered adjusters (recurrence), and the server's `dateModified`.
 */
import { isCompletedStatus, isEmptyValue, lookupConfigValue } from './field-mapping.js';
import { localDate, localIsoTimestamp, withDtstart } from './local-time.js';
import type { TaskInfo } from './task-info.js';
import type { TaskNotesSettings } from './tasknotes-settings.js';

/** Runs inside PUT after the patch is applied to the draft, before the write (e.g. recurrence). */
export type UpdateAdjuster = (ctx: {
  before: TaskInfo;
  draft: Record<string, unknown>;
  patch: Record<string, unknown>;
  settings: TaskNotesSettings;
  now: number;
}) => void;

export interface PatchContext {
  settings: TaskNotesSettings;
  now: number;
  adjusters: readonly UpdateAdjuster[];
}

/** Keys of the PUT body that are task fields (others are ignored unless they are user fields). */
const PATCHABLE = new Set([
  'title',
  'status',
  'priority',
  'due',
  'scheduled',
  'contexts',
  'projects',
  'attachments',
  'timeEstimate',
  'completedDate',
  'dateCreated',
  'recurrence',
  'recurrence_anchor',
  'complete_instances',
  'skipped_instances',
  'recurrence_parent',
  'occurrence_date',
  'occurrence_materialization',
  'occurrence_next_trigger',
  'occurrence_template',
  'occurrence_past_horizon',
  'occurrence_future_horizon',
  'timeEntries',
  'blockedBy',
  'icsEventId',
  'googleCalendarEventId',
  'googleCalendarExceptionEventId',
  'googleCalendarExceptionOriginalScheduled',
  'googleCalendarMovedOriginalDates',
  'reminders',
  'sortOrder',
  'tags',
  'archived',
]);

/** Sets a status (normalised to the configured value) and keeps completedDate in step with it. */
export function setStatus(
  draft: Record<string, unknown>,
  status: string,
  settings: TaskNotesSettings,
  now: number,
): void {
  const statuses = settings.customStatuses;
  const wasCompleted = isCompletedStatus(String(draft.status), statuses);
  // A label or differently-cased value is written as the configured value (reference §2.4).
  const value = lookupConfigValue(status, statuses);
  draft.status = value;
  // completedDate tracks completion for non-recurring tasks only (reference §2.4, §2.6).
  if (draft.recurrence) return;
  if (!isCompletedStatus(value, statuses)) draft.completedDate = undefined;
  else if (!wasCompleted || !draft.completedDate) draft.completedDate = localDate(now);
}

export function applyPatch(
  draft: Record<string, unknown>,
  before: TaskInfo,
  patch: Record<string, unknown>,
  { settings, now, adjusters }: PatchContext,
): void {
  const userKeys = new Set(settings.userFields.map((f) => f.key));
  for (const [key, value] of Object.entries(patch)) {
    if (key === 'status' || key === 'customFrontmatter' || key === 'customProperties') continue;
    if (key === 'details') draft.details = typeof value === 'string' ? value : '';
    // SPEC §6: null, a blank string or [] deletes the field.
    else if (PATCHABLE.has(key) || userKeys.has(key)) draft[key] = isEmptyValue(value) ? undefined : value;
  }
  if (patch.customProperties && typeof patch.customProperties === 'object') {
    // SPEC §6 / reference quirk 4: customProperties updates existing values too; a top-level key wins.
    const custom = { ...((draft.customProperties as Record<string, unknown> | undefined) ?? {}) };
    for (const [key, value] of Object.entries(patch.customProperties)) {
      if (userKeys.has(key) && !Object.hasOwn(patch, key))
        custom[key] = isEmptyValue(value) ? undefined : value;
    }
    draft.customProperties = custom;
  }
  if (typeof patch.status === 'string' || typeof patch.status === 'boolean') {
    setStatus(draft, String(patch.status), settings, now);
    const explicit = patch.completedDate;
    if (typeof explicit === 'string' && isCompletedStatus(String(draft.status), settings.customStatuses)) {
      draft.completedDate = explicit;
    }
  }
  if (patch.customFrontmatter && typeof patch.customFrontmatter === 'object') {
    for (const [key, value] of Object.entries(patch.customFrontmatter)) draft[key] = value ?? undefined;
  }
  // A rule without DTSTART gets one from the (new) scheduled date (reference §2.4).
  if (typeof draft.recurrence === 'string' && draft.recurrence.trim() !== '') {
    const anchor = (draft.scheduled as string | undefined) ?? (draft.dateCreated as string | undefined);
    draft.recurrence = withDtstart(draft.recurrence, anchor?.slice(0, anchor.includes('T') ? 16 : 10));
  }
  for (const adjust of adjusters) adjust({ before, draft, patch, settings, now });
  // dateModified is always the server's time on PUT; a client value is overwritten.
  draft.dateModified = localIsoTimestamp(now);
}
