/**
 * time.* — time tracking on a task's entry list (spec §5.19). Start and stop use the same rules
 * as the server's time service (src/core/time/entries.ts); validation, removal and totals come
 * from src/core/time/entry-rules.ts. Every list is validated first, and instants are answered in
 * canonical UTC form.
 */
import { startEntry, stopEntry } from '../../core/time/entries.js';
import {
  canonicalInstant,
  parseInstant,
  removeEntryAt,
  stopsOnCompletion,
  trackedTotals,
  validateTimeEntries,
} from '../../core/time/entry-rules.js';
import type { TimeEntry } from '../../core/tasks/task-info.js';
import { attempt } from '../envelope.js';
import { record } from '../input.js';
import type { OpTable } from '../types.js';

/** `now` of the input, or the current time. */
function nowOf(p: Record<string, unknown>): Date {
  return p.now === undefined ? new Date() : parseInstant(p.now, 'invalid_time_now');
}

/** The modification stamp to report: the given one (canonicalised), else the current time. */
function modifiedOf(p: Record<string, unknown>): string {
  const given = typeof p.dateModified === 'string' && p.dateModified.trim() !== '';
  return canonicalInstant(given ? parseInstant(p.dateModified, 'invalid_date_modified') : new Date());
}

/** start/stop write `toISOString()` instants; running the list through validation canonicalises them. */
const withCanonicalInstants = (entries: readonly TimeEntry[]): TimeEntry[] => validateTimeEntries(entries);

export const timeOps: OpTable = {
  'time.start': (input) =>
    attempt(() => {
      const p = record(input);
      const entries = validateTimeEntries(p.entries ?? []);
      const now = nowOf(p);
      return {
        value: withCanonicalInstants(startEntry(entries, now.getTime()).entries),
        dateModified: canonicalInstant(now),
      };
    }),
  'time.stop': (input) =>
    attempt(() => {
      const p = record(input);
      const entries = validateTimeEntries(p.entries ?? []);
      const now = nowOf(p);
      return {
        value: withCanonicalInstants(stopEntry(entries, now.getTime()).entries),
        dateModified: canonicalInstant(now),
      };
    }),
  'time.replace_entries': (input) =>
    attempt(() => {
      const p = record(input);
      return { value: validateTimeEntries(p.entries ?? []), dateModified: modifiedOf(p) };
    }),
  'time.remove_entry': (input) =>
    attempt(() => {
      const p = record(input);
      const index = record(p.selector).index;
      const entries = validateTimeEntries(p.entries ?? []);
      return {
        value: removeEntryAt(entries, typeof index === 'number' ? index : -1),
        dateModified: modifiedOf(p),
      };
    }),
  'time.auto_stop_on_complete': (input) =>
    attempt(() => {
      const p = record(input);
      const enabled = p.autoStopOnComplete === true;
      const transition = p.isCompletionTransition === true;
      // The entries only matter when a stop could happen; a disabled rule never fails on them.
      const entries = enabled && transition ? validateTimeEntries(p.taskEntries ?? []) : [];
      return { stopped: stopsOnCompletion(enabled, transition, entries) };
    }),
  'time.report_totals': (input) =>
    attempt(() => {
      const p = record(input);
      const totals = trackedTotals(validateTimeEntries(p.entries ?? []), nowOf(p).getTime());
      return { closed_minutes: totals.closed, live_minutes: totals.live };
    }),
};
