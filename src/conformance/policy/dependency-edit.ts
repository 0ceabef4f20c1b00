/**
 * Editing a task's dependency list (tasknotes-spec §10.2.9): add validates the new entry and keeps
 * every other entry; remove drops entries by normalized uid and is idempotent; replace swaps the
 * whole list after validating each entry. Inputs are never mutated.
 *
 * Adapter only: the API edits a dependency list by replacing it (PUT `blockedBy`); the entry
 * rules these use (src/core/dependencies) are the ones every write is validated with.
 */
import { invalid } from '../../core/errors.js';
import { dependencyEntryIssue, normalizeDependencyUid } from '../../core/dependencies/entry.js';

type Entry = Record<string, unknown>;

function assertValid(entry: unknown): void {
  const issue = dependencyEntryIssue(entry);
  if (issue) throw invalid(issue, { entry });
}

export function addDependency(current: readonly Entry[], entry: Entry): Entry[] {
  assertValid(entry);
  return [...current, entry];
}

export function removeDependency(current: readonly Entry[], uid: string): Entry[] {
  const key = normalizeDependencyUid(uid);
  return current.filter(
    (entry) => typeof entry.uid !== 'string' || normalizeDependencyUid(entry.uid) !== key,
  );
}

export function replaceDependencies(entries: readonly Entry[]): Entry[] {
  entries.forEach(assertValid);
  return [...entries];
}
