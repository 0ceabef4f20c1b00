import assert from 'node:assert/strict';
import { test } from 'node:test';
import { missingTargetOutcome } from '../../../src/core/dependencies/blocking.js';
import {
  addDependency,
  removeDependency,
  replaceDependencies,
} from '../../../src/conformance/policy/dependency-edit.js';
import {
  dependencyEntryIssue,
  dependencySetIssue,
  normalizeDependencyUid,
} from '../../../src/core/dependencies/entry.js';
import { normalizeDependencyList } from '../../../src/core/dependencies/normalize.js';

test('uids of every link form normalize to the same key; broken links do not', () => {
  for (const uid of [
    '[[task-a]]',
    'task-a',
    './task-a.md',
    '/task-a.md',
    '[[task-a#h|A]]',
    '[A](task-a.md)',
  ]) {
    assert.equal(normalizeDependencyUid(uid), 'task-a', uid);
  }
  assert.equal(normalizeDependencyUid('[bad]('), null);
  assert.equal(normalizeDependencyUid('  '), null);
});

test('entry and set validation answer with spec codes', () => {
  assert.equal(dependencyEntryIssue({ uid: '[[a]]', reltype: 'FINISHTOSTART', gap: 'P2W' }), null);
  assert.equal(dependencyEntryIssue({ uid: '[[a]]', reltype: 'BLOCKS' }), 'invalid_dependency_reltype');
  assert.equal(
    dependencyEntryIssue({ uid: '[[a]]', reltype: 'STARTTOSTART', gap: 'soon' }),
    'invalid_dependency_gap',
  );
  assert.equal(dependencyEntryIssue('task-a'), 'invalid_dependency_entry');
  const fs = { reltype: 'FINISHTOSTART' };
  assert.equal(
    dependencySetIssue('task-a', [
      { uid: '[[task-b]]', ...fs },
      { uid: 'task-b', ...fs },
    ]),
    'duplicate_dependency_uid',
  );
  assert.equal(dependencySetIssue('task-a', [{ uid: './task-a.md', ...fs }]), 'self_dependency');
});

test('edits: add validates, remove is idempotent by normalized uid, replace validates all', () => {
  const a = { uid: '[[a]]', reltype: 'FINISHTOSTART' };
  assert.deepEqual(addDependency([], a), [a]);
  assert.throws(() => addDependency([a], { uid: '[[b]]', reltype: 'X' }), /invalid_dependency_reltype/);
  assert.deepEqual(removeDependency([a], 'a.md'), []);
  assert.deepEqual(removeDependency([a], 'zzz'), [a]);
  assert.throws(() => replaceDependencies([a, { uid: '' }]), /invalid_dependency_entry/);
});

test('missing targets block by default and can be refused on write', () => {
  const policy = {
    severity: 'warning' as const,
    treatMissingTargetAsBlocked: true,
    requireResolvedUidOnWrite: true,
  };
  assert.deepEqual(missingTargetOutcome({ ...policy, requireResolvedUidOnWrite: false }, true), {
    blocked: true,
    issue: 'unresolved_dependency_target',
    severity: 'warning',
  });
  assert.throws(() => missingTargetOutcome(policy, true), /require_resolved_uid_on_write/);
});

test('legacy lists normalize to unique wikilink entries with a reltype', () => {
  assert.deepEqual(
    normalizeDependencyList([
      { uid: 'a.md' },
      { uid: '[[a]]', reltype: 'STARTTOSTART' },
      { uid: '[[b]]', reltype: 'starttostart', gap: ' PT1H ' },
      'x',
    ]),
    [
      { uid: '[[a]]', reltype: 'FINISHTOSTART' },
      { uid: '[[b]]', reltype: 'STARTTOSTART', gap: 'PT1H' },
    ],
  );
});
