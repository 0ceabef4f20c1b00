/**
 * Where a recurring task goes next: the scheduled day of its next open instance and the due
 * date that travels with it.
 *
 * - Scheduled anchor: the first occurrence on or after the floor that is neither completed nor
 *   skipped.
 * - Completion anchor: the first occurrence on or after the floor, strictly after an explicit
 *   DTSTART (which completion moved to the completed day), not skipped; completed days do not
 *   matter because the chain restarts at each completion.
 *
 * The time part of `scheduled` and `due` is kept. `due` follows the original scheduled→due day
 * offset when `maintainDueOffset` is on, or when it would otherwise fall before the new
 * scheduled day (as in the TaskNotes plugin); otherwise it is left alone.
 */
import { addDays, daysBetween, dayOf, withTimeOf } from './day.js';
import { Series } from './series.js';

export type RecurrenceAnchor = 'scheduled' | 'completion';

export interface RecurringState {
  recurrence: string;
  anchor: RecurrenceAnchor;
  scheduled?: string;
  due?: string;
  dateCreated?: string;
  complete: readonly string[];
  skipped: readonly string[];
}

export interface NextSchedule {
  scheduled: string;
  /** Absent when `due` stays as it is. */
  due?: string;
}

export function normaliseAnchor(value: unknown): RecurrenceAnchor {
  return value === 'completion' ? 'completion' : 'scheduled';
}

/** The next schedule on or after `floor`, or undefined when the rule has no such occurrence. */
export function nextSchedule(
  state: RecurringState,
  floor: string,
  options: { maintainDueOffset: boolean },
): NextSchedule | undefined {
  const series = Series.of(state);
  const skipped = new Set(state.skipped);
  const complete = new Set(state.complete);
  const next =
    state.anchor === 'completion'
      ? series.firstFrom(floor, (d) => !skipped.has(d) && (!series.explicitStart || d > series.startDay))
      : series.firstFrom(floor, (d) => !skipped.has(d) && !complete.has(d));
  if (!next) return undefined;
  const result: NextSchedule = { scheduled: withTimeOf(next, state.scheduled) };
  const scheduledDay = dayOf(state.scheduled);
  const dueDay = dayOf(state.due);
  if (scheduledDay && dueDay && (options.maintainDueOffset || dueDay < next)) {
    result.due = withTimeOf(addDays(next, daysBetween(scheduledDay, dueDay)), state.due);
  }
  return result;
}
