/**
 * When a task's reminder fires and what it says (as in the TaskNotes plugin). Absolute times
 * without an offset are local wall-clock time; relative reminders add their ISO 8601 offset to the
 * task's `due` or `scheduled` (a date-only anchor means local midnight). Parsing is shared with
 * the tasknotes-spec validation in offsets.ts, so the scheduler and the validator agree.
 */
import { parseIsoDuration, type IsoDuration } from '../dates/duration.js';
import { parseDateToLocal } from '../dates/parse.js';
import type { Reminder, TaskInfo } from '../tasks/task-info.js';
import { relativeTriggerInstant } from './offsets.js';

/** Epoch ms at which the reminder fires, or null when it cannot be computed (skipped). */
export function reminderFireTime(task: TaskInfo, reminder: Reminder): number | null {
  if (reminder.type === 'absolute') {
    if (typeof reminder.absoluteTime !== 'string') return null;
    try {
      return parseDateToLocal(reminder.absoluteTime).getTime();
    } catch {
      return null;
    }
  }
  if (reminder.type !== 'relative') return null;
  const anchor =
    reminder.relatedTo === 'due' ? task.due : reminder.relatedTo === 'scheduled' ? task.scheduled : undefined;
  if (typeof anchor !== 'string' || typeof reminder.offset !== 'string' || reminder.offset.trim() === '')
    return null;
  const at = relativeTriggerInstant(anchor, reminder.offset);
  return at && Number.isFinite(at.getTime()) ? at.getTime() : null;
}

const DAY = 86_400_000;

/** Approximate length of a duration for wording only (years 365 days, months 30, as the reference). */
function magnitudeMs(d: IsoDuration): number {
  return (
    (d.years * 365 + d.months * 30 + d.weeks * 7 + d.days) * DAY +
    (d.hours * 3600 + d.minutes * 60 + d.seconds) * 1000
  );
}

/** The largest whole unit among days, hours and minutes; under a minute reads "now". */
function describe(ms: number): string | null {
  for (const [unit, size] of [
    ['day', DAY],
    ['hour', 3_600_000],
    ['minute', 60_000],
  ] as const) {
    const n = Math.floor(ms / size);
    if (n >= 1) return `${n} ${unit}${n === 1 ? '' : 's'}`;
  }
  return null;
}

/**
 * The notification text: the reminder's description, else a sentence about the anchor. The
 * reference produced "<title> was due now ago" for a zero offset; that reads "<title> is due now".
 */
export function reminderMessage(task: TaskInfo, reminder: Reminder): string {
  if (typeof reminder.description === 'string' && reminder.description.trim() !== '')
    return reminder.description;
  if (reminder.type !== 'relative') return `Reminder: ${task.title}`;
  const anchor = reminder.relatedTo === 'scheduled' ? 'scheduled' : 'due';
  const offset = parseIsoDuration(reminder.offset ?? '');
  const amount = offset ? describe(magnitudeMs(offset)) : null;
  if (!offset || amount === null) return `${task.title} is ${anchor} now`;
  return offset.sign < 0
    ? `${task.title} is ${anchor} in ${amount}`
    : `${task.title} was ${anchor} ${amount} ago`;
}
