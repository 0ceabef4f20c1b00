/**
 * Delete safety (tasknotes-spec §5.13): the optional backlink check before deleting a task, with
 * force as the bypass the spec requires. (Write conflicts are the ETag preconditions of
 * tasks/etag.ts.)
 */
import { conflict } from '../errors.js';

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
