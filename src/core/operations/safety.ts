/**
 * Write safety (tasknotes-spec §5.13, §5.16): optimistic concurrency — a write based on a stale
 * version is refused unless the caller explicitly overwrites — and the optional backlink check
 * before deleting a task, with force as the bypass the spec requires.
 */
import { conflict } from '../errors.js';

/** Throws CONFLICT `write_conflict` when the note changed since the caller read it. */
export function assertNoWriteConflict(
  expectedVersion: string,
  actualVersion: string,
  overwrite: boolean,
): void {
  if (overwrite || expectedVersion === '' || actualVersion === '') return;
  if (expectedVersion !== actualVersion) {
    throw conflict(
      `write_conflict: the note changed since it was read (expected ${expectedVersion}, found ${actualVersion})`,
    );
  }
}

/** Throws CONFLICT when other notes still link to the task and the delete is not forced. */
export function assertDeletable(options: {
  checkBacklinks: boolean;
  force: boolean;
  linkingNotes: readonly string[];
}): void {
  if (!options.checkBacklinks || options.force || options.linkingNotes.length === 0) return;
  throw conflict(
    `backlink dependency check failed: ${options.linkingNotes.join(', ')} still link to this task; pass force to delete`,
  );
}
