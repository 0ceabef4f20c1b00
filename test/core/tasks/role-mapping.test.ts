import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  buildRoleMapping,
  defaultCompletedStatus,
  defaultRoleMapping,
  resolveDisplayTitle,
  toFieldKeys,
  toRoleKeys,
} from '../../../src/core/tasks/role-mapping.js';

test('default mapping is the identity with done/cancelled completion', () => {
  const mapping = defaultRoleMapping();
  assert.equal(mapping.roleToField.recurrenceAnchor, 'recurrenceAnchor');
  assert.equal(mapping.displayNameKey, 'title');
  assert.deepEqual(mapping.completedStatuses, ['done', 'cancelled']);
});

test('tn_role tags rename fields; the first tag of a role wins; completion is inferred', () => {
  const mapping = buildRoleMapping({
    firstTitle: { tn_role: 'title' },
    secondTitle: { tn_role: 'title' },
    myStatus: { tn_role: 'status', values: ['open', 'in-progress', 'completed', 'cancelled'] },
    bogus: { tn_role: 'colour' },
  });
  assert.equal(mapping.roleToField.title, 'firstTitle');
  assert.equal(mapping.fieldToRole.secondTitle, undefined);
  assert.equal(mapping.displayNameKey, 'firstTitle');
  assert.deepEqual(mapping.completedStatuses, ['completed', 'cancelled']);
  assert.equal(defaultCompletedStatus(mapping), 'completed');
  const explicit = buildRoleMapping({
    s: { tn_role: 'status', values: ['a', 'done'], tn_completed_values: [' a '] },
  });
  assert.deepEqual(explicit.completedStatuses, ['a']);
});

test('normalize and denormalize rename mapped keys and keep the rest', () => {
  const mapping = buildRoleMapping({ myDue: { tn_role: 'due' } });
  assert.deepEqual(toRoleKeys({ myDue: '2026-02-20', vendor: 'x' }, mapping), {
    due: '2026-02-20',
    vendor: 'x',
  });
  assert.deepEqual(toFieldKeys({ due: '2026-02-20', vendor: 'x' }, mapping), {
    myDue: '2026-02-20',
    vendor: 'x',
  });
});

test('display title: display key, then title, then file name, else undefined', () => {
  const mapping = buildRoleMapping({ custom: { tn_role: 'title' } }, 'custom');
  assert.equal(resolveDisplayTitle({ title: 'T', custom: 'C' }, mapping), 'C');
  assert.equal(resolveDisplayTitle({ title: 'T', custom: ' ' }, mapping), 'T');
  assert.equal(resolveDisplayTitle({}, mapping, 'tasks/From Path.md'), 'From Path');
  assert.equal(resolveDisplayTitle({}, mapping, ''), undefined);
});
