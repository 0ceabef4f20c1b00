/**
 * Validated writes (tasknotes-spec §6.3, §6.8): every write of a task note is validated after the
 * intended change, and in strict mode an error blocks it. A write is blocked only by errors in
 * what it changes — an error on a field it sets, or one the note did not have before — so a note
 * that already had a problem (an old note without dateCreated, say) can still be edited in its
 * other fields; `taskdown check` reports such problems. Warnings never block.
 */
import { invalid, type DomainError } from '../errors.js';
import { errorsOf, type ValidationIssue, type ValidationReport } from './validate-task.js';

/** `blockedBy[2]` → `blockedBy`: the field an issue about a list entry belongs to. */
export const issueField = (issue: ValidationIssue): string => (issue.field ?? '').replace(/\[\d+\]$/, '');

const keyOf = (issue: ValidationIssue): string => `${issue.code}\u0000${issue.field ?? ''}`;

/**
 * The errors of `after` that the write is responsible for. `before` is the note as it was (null
 * for a new note: every error counts); `changed` are the frontmatter keys the write sets.
 */
export function blockingIssues(
  after: ValidationReport,
  before: ValidationReport | null,
  changed: ReadonlySet<string>,
): ValidationIssue[] {
  const had = new Set(before === null ? [] : errorsOf(before).map(keyOf));
  return errorsOf(after).filter((issue) => !had.has(keyOf(issue)) || changed.has(issueField(issue)));
}

/**
 * The INVALID error of a refused write: the first issue as `"<field>: <message>"`, every issue in
 * `details.issues` (the HTTP adapter answers them as `issues`).
 */
export function validationFailure(issues: readonly ValidationIssue[]): DomainError {
  const [first] = issues;
  const message = first ? `${first.field ?? 'task'}: ${first.message ?? first.code}` : 'invalid task';
  return invalid(message, { issues: issues.map((issue) => ({ ...issue })) });
}
