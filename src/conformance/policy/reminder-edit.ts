/**
 * Editing a task's reminder list (tasknotes-spec §10.3.8): add validates the new entry, update
 * patches the entry with the given id and revalidates it, remove by id is idempotent. Inputs are
 * never mutated.
 *
 * Adapter only: the API edits reminders by replacing the list (PUT `reminders`); the entry rules
 * these use (src/core/reminders/entry.ts) are the ones every write is validated with.
 */
import { invalid, notFound } from '../../core/errors.js';
import { reminderEntryIssue } from '../../core/reminders/entry.js';

type Entry = Record<string, unknown>;

function assertValid(entry: unknown): void {
  const issue = reminderEntryIssue(entry);
  if (issue) throw invalid(issue, { entry });
}

export function addReminder(current: readonly Entry[], entry: Entry): Entry[] {
  assertValid(entry);
  return [...current, entry];
}

export function updateReminder(current: readonly Entry[], id: string, patch: Entry): Entry[] {
  const index = current.findIndex((entry) => entry.id === id);
  if (index < 0) throw notFound(`reminder_not_found: no reminder with id "${id}"`);
  const merged = { ...current[index], ...patch };
  assertValid(merged);
  return current.map((entry, i) => (i === index ? merged : entry));
}

export function removeReminder(current: readonly Entry[], id: string): Entry[] {
  return current.filter((entry) => entry.id !== id);
}
