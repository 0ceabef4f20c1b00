/**
 * One instance change on a recurring task (complete, uncomplete, skip, unskip) and what follows
 * from it: the instance lists, the DTSTART, and the next scheduled/due dates. Pure: the caller
 * reads the task, applies the result and writes it.
 */
import { ensureDtstart, withDtstart } from './dtstart.js';
import { applyInstanceAction, type InstanceAction } from './instances.js';
import { nextSchedule, type RecurringState } from './schedule.js';
import { Series } from './series.js';

export interface ScheduleOptions {
  /** No next instance before this day (the reference uses max(instance day, today)). */
  floor: string;
  maintainDueOffset: boolean;
}

export interface InstanceChange {
  recurrence: string;
  complete: string[];
  skipped: string[];
  /** The next scheduled value; absent when the rule has no further occurrence. */
  scheduled?: string;
  /** The next due value; absent when due stays as it is. */
  due?: string;
}

/**
 * The rule with the DTSTART it must carry after this change: completing a completion-anchored
 * task restarts the chain at the completed day (spec §4.4.2); otherwise the start stays fixed and
 * is only added when missing.
 */
function ruleAfter(state: RecurringState, day: string, action: InstanceAction): string {
  if (state.anchor === 'completion' && action === 'complete') return withDtstart(state.recurrence, day);
  return ensureDtstart(state.recurrence, state.scheduled, state.dateCreated);
}

export function changeInstance(
  state: RecurringState,
  day: string,
  action: InstanceAction,
  options: ScheduleOptions,
): InstanceChange {
  const lists = applyInstanceAction(
    { complete: [...state.complete], skipped: [...state.skipped] },
    day,
    action,
  );
  const recurrence = ruleAfter(state, day, action);
  const next = nextSchedule({ ...state, recurrence, ...lists }, options.floor, options);
  return { recurrence, ...lists, ...next };
}

/** Recomputes the schedule without changing any instance (spec operation `recalculate`). */
export function recalculate(
  state: RecurringState,
  options: ScheduleOptions,
): { recurrence: string; scheduled?: string; due?: string } {
  const recurrence =
    state.anchor === 'scheduled'
      ? ensureDtstart(state.recurrence, state.scheduled, state.dateCreated)
      : state.recurrence;
  return { recurrence, ...nextSchedule({ ...state, recurrence }, options.floor, options) };
}

/**
 * The instance a requested day belongs to, for the scheduled anchor (as in the TaskNotes plugin):
 * the day itself when the rule produces it; otherwise the latest open occurrence shortly before
 * it; otherwise the next open occurrence; otherwise the day itself. A completion-anchored task
 * has no fixed chain, so its instance is always the requested day.
 */
export function owningDay(state: RecurringState, day: string): string {
  if (state.anchor === 'completion') return day;
  const series = Series.of(state);
  if (series.occursOn(day)) return day;
  const done = new Set([...state.complete, ...state.skipped]);
  const open = (d: string): boolean => !done.has(d);
  return series.lastUpTo(day, series.lookbackDays(), open) ?? series.firstFrom(day, open) ?? day;
}
