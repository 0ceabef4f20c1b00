import assert from 'node:assert/strict';
import { test } from 'node:test';
import { archiveTask } from '../../../src/core/operations/archive.js';
import { summarizeBatch } from '../../../src/conformance/policy/batch.js';
import { completeTask, uncompleteTask } from '../../../src/core/operations/completion.js';
import { operationError } from '../../../src/conformance/policy/operation-error.js';
import { isSafeToRepeat } from '../../../src/conformance/policy/idempotency.js';
import { applyPatch, changedKeys, commitPatch } from '../../../src/core/operations/patch.js';
import { pathForRetitle, planRename } from '../../../src/core/operations/rename.js';
import { assertDeletable } from '../../../src/core/operations/safety.js';

const today = '2026-03-01';

test('patches change only their keys; re-sending a value is no change', () => {
  const original = { title: 'W', due: '2026-02-20', vendor: 'ZX', tags: ['a'] };
  assert.deepEqual(applyPatch(original, { due: '2026-02-20T09:00:00Z' }), {
    frontmatter: { title: 'W', due: '2026-02-20T09:00:00Z', vendor: 'ZX', tags: ['a'] },
    changed: true,
  });
  assert.equal(applyPatch(original, { tags: ['a'] }).changed, false);
  assert.deepEqual(changedKeys({}, { title: 'x', status: 'open' }), ['title', 'status']);
});

test('a failed commit leaves the original state', async () => {
  const failed = await commitPatch({ status: 'open', x: 1 }, { status: 'done' }, async () => {
    throw new Error('disk full');
  });
  assert.deepEqual(failed, { committed: false, persisted: { status: 'open', x: 1 }, error: 'disk full' });
  const done = await commitPatch({ status: 'open' }, { status: 'done' }, async () => {});
  assert.deepEqual(done, { committed: true, persisted: { status: 'done' } });
});

test('completion policy: first completed value, keeps an existing state, explicit date wins', () => {
  const values = ['cancelled', 'done'];
  assert.deepEqual(completeTask({ status: 'open' }, { completedValues: values, today }), {
    status: 'cancelled',
    completedDate: today,
  });
  assert.deepEqual(
    completeTask({ status: 'done', completedDate: '2026-02-19' }, { completedValues: values, today }),
    {
      status: 'done',
      completedDate: '2026-02-19',
    },
  );
  assert.equal(
    completeTask({}, { completedValues: values, explicitDate: '2026-02-20T10:00:00Z', today }).completedDate,
    '2026-02-20',
  );
  assert.throws(
    () => completeTask({}, { completedValues: values, explicitDate: '2026-02-30', today }),
    /Invalid date/,
  );
  assert.deepEqual(
    uncompleteTask({ completedDate: '2026-02-20' }, { defaultStatus: 'open', clearCompletedDate: false }),
    {
      status: 'open',
      completedDate: '2026-02-20',
    },
  );
});

test('repeating completion, reopening or create changes nothing', () => {
  assert.equal(
    isSafeToRepeat('complete_nonrecurring', { status: 'done', completedDate: '2026-02-20' }, today),
    true,
  );
  assert.equal(
    isSafeToRepeat('complete_nonrecurring', { status: 'open', completedDate: null }, today),
    false,
  );
  assert.equal(
    isSafeToRepeat('uncomplete_nonrecurring', { status: 'open', completedDate: null }, today),
    true,
  );
  assert.equal(isSafeToRepeat('create', { title: 'x' }, today), true);
  assert.throws(() => isSafeToRepeat('explode', {}, today), /unsupported_operation/);
});

test('backlinks, archive, rename, batch and error shape', () => {
  assert.throws(
    () => assertDeletable({ checkBacklinks: true, force: false, linkingNotes: ['x.md'] }),
    /force/,
  );
  assert.doesNotThrow(() => assertDeletable({ checkBacklinks: true, force: true, linkingNotes: ['x.md'] }));
  assert.deepEqual(archiveTask({ tags: ['task', 'archived'] }, 'tag'), {
    deleted: false,
    frontmatter: { tags: ['task', 'archived'] },
  });
  assert.deepEqual(archiveTask({ tags: 'task' }, 'tag'), {
    deleted: false,
    frontmatter: { tags: ['task', 'archived'] },
  });
  assert.deepEqual(pathForRetitle('filename', 'tasks/Old.md', 'New: Title?'), {
    path: 'tasks/New Title.md',
    renamed: true,
  });
  assert.deepEqual(pathForRetitle('frontmatter', 'tasks/Old.md', 'New'), {
    path: 'tasks/Old.md',
    renamed: false,
  });
  assert.deepEqual(planRename('tasks/A.md', 'tasks/B.md', true), {
    path: 'tasks/B.md',
    referencesUpdated: true,
  });
  assert.throws(() => planRename('tasks/A.md', '../B.md', false), /path_traversal/);
  assert.deepEqual(
    summarizeBatch(
      ['a', 'b', 'c'],
      [
        { id: 'a', ok: true },
        { id: 'c', ok: true },
      ],
    ),
    { total: 3, succeeded: 2, failed: 1 },
  );
  assert.deepEqual(operationError({ code: 'x' }), { operation: 'unknown', code: 'x', message: 'x' });
});
