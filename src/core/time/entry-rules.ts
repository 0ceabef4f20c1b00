/**
 * The tasknotes-spec rules of a `timeEntries` list (§5.19, §6): every entry has a parseable
 * `startTime`; an `endTime`, when present, parses and is not before the start; at most one entry
 * is running. Instants are kept in canonical UTC form (`2026-02-20T09:00:00Z`, milliseconds only
 * when non-zero). Complements entries.ts (start/stop) with validation, removal and totals.
 */
import { invalid } from '../errors.js';
import { parseDateToUTC } from '../dates/parse.js';
import type { TimeEntry } from '../tasks/task-info.js';
import { entryMinutes } from './entries.js';
import { isRecord } from '../is-record.js';

export type TimeEntryIssue =
  | 'invalid_time_entries'
  | 'invalid_time_entry'
  | 'missing_time_entry_start'
  | 'invalid_time_entry_start'
  | 'invalid_time_entry_end'
  | 'invalid_time_range'
  | 'multiple_active_time_entries';

/** `2026-02-20T09:00:00.000Z` → `2026-02-20T09:00:00Z`; other instants keep their milliseconds. */
export function canonicalInstant(date: Date): string {
  return date.toISOString().replace('.000Z', 'Z');
}

/** Parses an instant; INVALID with `code` when blank or unparseable. */
export function parseInstant(value: unknown, code: string): Date {
  if (typeof value !== 'string' || value.trim() === '') throw invalid(code);
  try {
    return parseDateToUTC(value.trim());
  } catch {
    throw invalid(code);
  }
}

const isBlank = (v: unknown): boolean => v === undefined || v === null || v === '';

/** What each issue means, after its code and the entry (`invalid_time_range: entry 2: …`). */
const ISSUE_TEXT: Record<TimeEntryIssue, string> = {
  invalid_time_entries: 'must be a list of entries',
  invalid_time_entry: 'must be an object with startTime (and endTime once it ended)',
  missing_time_entry_start: 'has no startTime',
  invalid_time_entry_start: 'startTime is not a date-time',
  invalid_time_entry_end: 'endTime is not a date-time',
  invalid_time_range: 'endTime is before startTime',
  multiple_active_time_entries: 'more than one entry is running (has no endTime)',
};

/** INVALID whose message is the spec issue code, the entry (1-based) and what is wrong. */
const issue = (code: TimeEntryIssue, index?: number): Error =>
  invalid(`${code}: ${index === undefined ? '' : `entry ${index + 1}: `}${ISSUE_TEXT[code]}`);

/**
 * Validates a raw list and returns it with canonical instants (other keys kept, the legacy
 * `duration` dropped — it is derived, never stored). Throws INVALID whose message starts with
 * the spec issue code.
 */
export function validateTimeEntries(raw: unknown): TimeEntry[] {
  if (!Array.isArray(raw)) throw issue('invalid_time_entries');
  let running = 0;
  const instant = (value: unknown, code: TimeEntryIssue, index: number): Date => {
    try {
      return parseInstant(value, code);
    } catch {
      throw issue(code, index);
    }
  };
  const out = raw.map((item, index): TimeEntry => {
    if (!isRecord(item)) throw issue('invalid_time_entry', index);
    if (typeof item.startTime !== 'string' || item.startTime.trim() === '')
      throw issue('missing_time_entry_start', index);
    const { duration: _derived, ...rest } = item;
    const start = instant(item.startTime, 'invalid_time_entry_start', index);
    const entry: TimeEntry = { ...rest, startTime: canonicalInstant(start) };
    if (isBlank(item.endTime)) {
      delete entry.endTime;
      running += 1;
      return entry;
    }
    const end = instant(item.endTime, 'invalid_time_entry_end', index);
    if (end.getTime() < start.getTime()) throw issue('invalid_time_range', index);
    entry.endTime = canonicalInstant(end);
    return entry;
  });
  if (running > 1) throw issue('multiple_active_time_entries');
  return out;
}

/** The issue of a raw list (its spec code and the message that explains it), or null when valid. */
export function timeEntriesIssue(raw: unknown): { code: string; message: string } | null {
  try {
    validateTimeEntries(raw);
    return null;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { code: message.slice(0, message.indexOf(':')), message: message.slice(message.indexOf(':') + 2) };
  }
}

/** Removes the entry at `index`; NOT_FOUND-style INVALID `time_entry_not_found` when out of range. */
export function removeEntryAt(entries: readonly TimeEntry[], index: number): TimeEntry[] {
  if (!Number.isInteger(index) || index < 0 || index >= entries.length) {
    throw invalid(`time_entry_not_found: no entry at index ${index}`);
  }
  return entries.filter((_entry, i) => i !== index);
}

/** Minutes of finished entries, and of all entries with running ones counted up to `now`. */
export function trackedTotals(entries: readonly TimeEntry[], now: number): { closed: number; live: number } {
  let closed = 0;
  let running = 0;
  for (const entry of entries) {
    if (entry.endTime) closed += entryMinutes(entry, now);
    else running += entryMinutes(entry, now);
  }
  return { closed, live: closed + running };
}

/**
 * Whether completing a task stops its running entry (§5.19.5): only on a transition into a
 * completed status, only when `auto_stop_on_complete` is on, and only if an entry is running.
 */
export function stopsOnCompletion(
  autoStopOnComplete: boolean,
  isCompletionTransition: boolean,
  entries: readonly TimeEntry[],
): boolean {
  return autoStopOnComplete && isCompletionTransition && entries.some((e) => !e.endTime);
}
