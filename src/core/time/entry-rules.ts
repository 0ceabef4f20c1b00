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

/**
 * Validates a raw list and returns it with canonical instants (other keys kept, the legacy
 * `duration` dropped — it is derived, never stored). Throws INVALID with the spec issue code.
 */
export function validateTimeEntries(raw: unknown): TimeEntry[] {
  if (!Array.isArray(raw)) throw invalid('invalid_time_entries');
  let running = 0;
  const out = raw.map((item): TimeEntry => {
    if (!isRecord(item)) throw invalid('invalid_time_entry');
    if (typeof item.startTime !== 'string' || item.startTime.trim() === '')
      throw invalid('missing_time_entry_start');
    const { duration: _derived, ...rest } = item;
    const start = parseInstant(item.startTime, 'invalid_time_entry_start');
    const entry: TimeEntry = { ...rest, startTime: canonicalInstant(start) };
    if (isBlank(item.endTime)) {
      delete entry.endTime;
      running += 1;
      return entry;
    }
    const end = parseInstant(item.endTime, 'invalid_time_entry_end');
    if (end.getTime() < start.getTime()) throw invalid('invalid_time_range');
    entry.endTime = canonicalInstant(end);
    return entry;
  });
  if (running > 1) throw invalid('multiple_active_time_entries');
  return out;
}

/** The issue code of a raw list, or null when valid. */
export function timeEntriesIssue(raw: unknown): string | null {
  try {
    validateTimeEntries(raw);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
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
