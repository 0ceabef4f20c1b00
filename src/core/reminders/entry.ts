/**
 * Reminder entries of a task's `reminders` list (tasknotes-spec §10.3) and their validation.
 * Validation answers with the spec's issue code so that the HTTP layer, the conformance adapter
 * and the reminder scheduler agree on what a usable reminder is.
 */
import { parseDateToUTC } from '../dates/parse.js';
import { isReminderOffset } from './offsets.js';
import { isRecord } from '../is-record.js';

export type ReminderType = 'absolute' | 'relative';
export type ReminderBase = 'due' | 'scheduled';

export interface ReminderEntry {
  id: string;
  type: ReminderType;
  relatedTo?: ReminderBase;
  offset?: string;
  absoluteTime?: string;
  description?: string;
}

export type ReminderIssue =
  | 'invalid_reminder_entry'
  | 'invalid_reminder_type'
  | 'invalid_reminder_absolute_time'
  | 'invalid_reminder_related_to'
  | 'invalid_reminder_offset'
  | 'duplicate_reminder_id'
  | 'unresolvable_reminder_base'
  | 'reminder_not_found';

const trimmed = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

/** An absolute reminder time must name an instant: a datetime with `Z` or an explicit offset. */
function isInstant(text: string): boolean {
  if (!/T.*(?:Z|[+-]\d{2}:?\d{2})$/.test(text)) return false;
  try {
    parseDateToUTC(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The first problem with one entry, or null when it is a valid reminder. Fields that do not
 * belong to the entry's type are ignored (an absolute reminder may carry a stale `offset`).
 */
export function reminderEntryIssue(entry: unknown): ReminderIssue | null {
  if (!isRecord(entry) || trimmed(entry.id) === '') return 'invalid_reminder_entry';
  const type = trimmed(entry.type);
  if (type === 'absolute') {
    return isInstant(trimmed(entry.absoluteTime)) ? null : 'invalid_reminder_absolute_time';
  }
  if (type === 'relative') {
    const base = trimmed(entry.relatedTo);
    if (base !== 'due' && base !== 'scheduled') return 'invalid_reminder_related_to';
    return isReminderOffset(trimmed(entry.offset)) ? null : 'invalid_reminder_offset';
  }
  return 'invalid_reminder_type';
}

/**
 * Validates a task's whole reminder list in strict mode: every entry valid, ids unique, and every
 * relative reminder's base field present in the task's (role-keyed) frontmatter.
 */
export function reminderSetIssue(
  entries: readonly unknown[],
  task: Record<string, unknown>,
): ReminderIssue | null {
  const ids = new Set<string>();
  for (const entry of entries) {
    const issue = reminderEntryIssue(entry);
    if (issue) return issue;
    const { id, type, relatedTo } = entry as ReminderEntry;
    if (ids.has(id)) return 'duplicate_reminder_id';
    ids.add(id);
    if (type === 'relative' && trimmed(task[relatedTo as string]) === '') return 'unresolvable_reminder_base';
  }
  return null;
}
