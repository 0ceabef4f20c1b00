/**
 * PUT adjustment (as in the TaskNotes plugin): when a task's `recurrence` changes to a different
 * rule, its scheduled and due dates move to the next open instance on or after today, due keeping
 * its offset per `maintainDueDateOffsetInRecurring`. A rule that cannot be evaluated is left as
 * it is: the write's validation refuses it (`invalid_recurrence_rule`, tasknotes-spec §4.3.2), so
 * nothing is written.
 */
import type { UpdateAdjuster } from '../tasks/task-service.js';
import { localDay } from './day.js';
import { recalculate } from './instance-change.js';
import { isRecurring, recurringState } from './recurring-task.js';
import { RecurrenceSyntaxError } from './rule.js';

export const recurrenceChangeAdjuster: UpdateAdjuster = ({ before, draft, settings, now }) => {
  const task = draft as typeof before;
  if (!isRecurring(task) || task.recurrence === before.recurrence) return;
  try {
    const next = recalculate(recurringState(task), {
      floor: localDay(now),
      maintainDueOffset: settings.maintainDueDateOffsetInRecurring,
    });
    if (next.scheduled !== undefined) draft.scheduled = next.scheduled;
    if (next.due !== undefined) draft.due = next.due;
  } catch (err) {
    if (!(err instanceof RecurrenceSyntaxError)) throw err;
  }
};
