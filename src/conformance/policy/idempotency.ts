/**
 * "Operations identified as idempotent MUST remain safe under repetition" (tasknotes-spec §5.2):
 * given the state an operation produced, does running it again leave that state unchanged?
 * Completion and reopening re-apply their policy (completion.ts); a repeated create finds the
 * note already there and is refused, so the existing note is unchanged.
 *
 * Adapter only: the suite's idempotency question, answered with the completion policy that
 * the server's status changes use (src/core/operations/completion.ts).
 */
import { invalid } from '../../core/errors.js';
import { DEFAULT_COMPLETED_STATUSES } from '../../core/tasks/role-mapping.js';
import { completeTask, uncompleteTask } from '../../core/operations/completion.js';

type State = Record<string, unknown>;

export function isSafeToRepeat(operation: string, after: State | null, today: string): boolean {
  switch (operation) {
    case 'create':
      return after !== null;
    case 'complete_nonrecurring': {
      if (after === null) return false;
      const again = completeTask(after, { completedValues: DEFAULT_COMPLETED_STATUSES, today });
      return again.status === after.status && again.completedDate === after.completedDate;
    }
    case 'uncomplete_nonrecurring': {
      if (after === null || typeof after.status !== 'string') return false;
      const clearCompletedDate = after.completedDate === null || after.completedDate === undefined;
      const again = uncompleteTask(after, { defaultStatus: after.status, clearCompletedDate });
      return again.status === after.status && again.completedDate === (after.completedDate ?? null);
    }
    default:
      throw invalid(`unsupported_operation: no idempotency rule for "${operation}"`);
  }
}
