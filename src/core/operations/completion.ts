/**
 * Completing and reopening a non-recurring task (tasknotes-spec §5.5–5.6). Policy, as the spec
 * asks implementations to document it:
 * - complete keeps a status that is already a completed one, else writes the first configured
 *   completed value; `completedDate` is the explicit date when given, else the existing one, else
 *   today — so completing twice changes nothing (idempotent);
 * - uncomplete writes the default status and clears `completedDate` only when asked to.
 */
import { getDatePart } from '../dates/parts.js';
import { validateDateString } from '../dates/parse.js';

export interface CompletionState {
  status: string;
  completedDate: string | null;
}

export interface CompleteOptions {
  completedValues: readonly string[];
  /** Day to record instead of today (`YYYY-MM-DD` or a datetime). */
  explicitDate?: string;
  today: string;
}

export function completeTask(
  current: { status?: unknown; completedDate?: unknown },
  options: CompleteOptions,
): CompletionState {
  const values = options.completedValues.filter((v) => v.trim() !== '');
  const alreadyDone = typeof current.status === 'string' && values.includes(current.status);
  const status = alreadyDone ? (current.status as string) : (values[0] ?? 'done');
  const explicit = options.explicitDate?.trim();
  const existing =
    typeof current.completedDate === 'string' && current.completedDate.trim() !== ''
      ? current.completedDate
      : undefined;
  const completedDate = explicit ? validateDateString(getDatePart(explicit)) : (existing ?? options.today);
  return { status, completedDate };
}

export function uncompleteTask(
  current: { completedDate?: unknown },
  options: { defaultStatus: string; clearCompletedDate: boolean },
): CompletionState {
  const kept = typeof current.completedDate === 'string' ? current.completedDate : null;
  return { status: options.defaultStatus, completedDate: options.clearCompletedDate ? null : kept };
}
