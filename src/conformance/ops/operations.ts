/**
 * op.*, archive.*, delete.*, rename.*, batch.* — task mutation semantics (spec §5) over
 * src/core/operations. Fixture inputs carry the task state directly; where an operation writes,
 * the write goes to an in-memory target so that a simulated failure exercises the real
 * all-or-nothing path.
 */
import { localDay } from '../../core/dates/calendar.js';
import { archiveTask } from '../../core/operations/archive.js';
import { summarizeBatch } from '../policy/batch.js';
import { completeTask, uncompleteTask } from '../../core/operations/completion.js';
import { operationError } from '../policy/operation-error.js';
import { isSafeToRepeat } from '../policy/idempotency.js';
import { applyPatch, changedKeys, commitPatch } from '../../core/operations/patch.js';
import { pathForRetitle, planRename } from '../../core/operations/rename.js';
import { assertDeletable } from '../../core/operations/safety.js';
import { etagOfHash, PRECONDITION_FAILED, preconditionHolds } from '../../core/tasks/etag.js';
import { attempt, errResult, okResult } from '../envelope.js';
import { isRecord, optString, record, records, str, strings } from '../input.js';
import type { OpTable } from '../types.js';

const today = (): string => localDay(new Date());

export const operationOps: OpTable = {
  'op.atomic_write': async (input) => {
    const p = record(input);
    const result = await commitPatch(record(p.original), record(p.patch), async () => {
      if (p.simulateFailureAfterWrite === true) throw new Error('simulated failure after write');
    });
    return okResult({ committed: result.committed, persisted: result.persisted });
  },
  'op.idempotency_check': (input) => {
    const p = record(input);
    return attempt(() => ({
      idempotent: isSafeToRepeat(str(p.operation), isRecord(p.second) ? p.second : null, today()),
    }));
  },
  'op.update_patch': (input) => {
    const p = record(input);
    return okResult(applyPatch(record(p.original), record(p.patch)));
  },
  'op.complete_nonrecurring': (input) => {
    const p = record(input);
    return attempt(() =>
      completeTask(record(p.frontmatter), {
        completedValues: strings(p.completedValues),
        explicitDate: optString(p.explicitDate),
        today: today(),
      }),
    );
  },
  'op.uncomplete_nonrecurring': (input) => {
    const p = record(input);
    const defaultStatus = optString(p.defaultStatus)?.trim() || 'open';
    return okResult(
      uncompleteTask(record(p.frontmatter), {
        defaultStatus,
        clearCompletedDate: p.clearCompletedDate === true,
      }),
    );
  },
  'op.error_shape': (input) => {
    const p = record(input);
    return okResult(
      operationError({
        operation: optString(p.operation),
        code: optString(p.code),
        message: optString(p.message),
        field: optString(p.field),
      }),
    );
  },
  'op.detect_conflict': (input) => {
    const p = record(input);
    // The server's If-Match rule: a write based on another version of the note is refused,
    // unless the caller overwrites (sends no precondition).
    const expected = str(p.expectedVersion);
    const actual = str(p.actualVersion);
    const precondition = p.overwrite === true || expected === '' ? ['*'] : [etagOfHash(expected)];
    if (actual !== '' && !preconditionHolds(precondition, etagOfHash(actual))) {
      return errResult(`write_conflict: ${PRECONDITION_FAILED}`);
    }
    return okResult({ conflict: false });
  },
  'op.dry_run': (input) => {
    const p = record(input);
    return okResult({ wrote: false, plannedChanges: changedKeys(record(p.original), record(p.patch)) });
  },
  'archive.apply': (input) => {
    const p = record(input);
    return okResult(archiveTask(record(p.frontmatter), p.mode === 'delete' ? 'delete' : 'tag'));
  },
  'delete.remove': (input) => {
    const p = record(input);
    return attempt(() => {
      assertDeletable({
        checkBacklinks: p.checkBacklinks === true,
        force: p.force === true,
        linkingNotes: strings(p.brokenLinks),
      });
      return { deleted: true };
    });
  },
  'rename.apply': (input) => {
    const p = record(input);
    return attempt(() => planRename(str(p.fromPath), str(p.toPath), p.updateReferences === true));
  },
  'rename.title_storage_interaction': (input) => {
    const p = record(input);
    const storage = p.titleStorage === 'filename' ? 'filename' : 'frontmatter';
    const newTitle = str(p.newTitle);
    return okResult({
      ...pathForRetitle(storage, str(p.oldPath), newTitle),
      frontmatter: { title: newTitle },
    });
  },
  'batch.apply': (input) => {
    const p = record(input);
    const ids = records(p.items).map((item, index) =>
      typeof item.id === 'string' ? item.id : String(index),
    );
    return okResult(summarizeBatch(ids, records(p.outcomes)));
  },
};
