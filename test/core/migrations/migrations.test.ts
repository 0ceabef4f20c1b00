import assert from 'node:assert/strict';
import { test } from 'node:test';
import { normalizeAliases } from '../../../src/conformance/policy/legacy-aliases.js';
import { resolveInstanceOverlap } from '../../../src/core/migrations/instances.js';
import { migrationReport } from '../../../src/conformance/policy/migration-policy.js';
import { normalizeTemporalFields } from '../../../src/core/migrations/temporal.js';

test('aliases move to canonical keys; conflicting values keep the canonical one', () => {
  assert.deepEqual(normalizeAliases({ complete_instances: ['2026-02-20'] }), {
    frontmatter: { completeInstances: ['2026-02-20'] },
    issues: [],
  });
  const conflict = normalizeAliases({ recurrenceAnchor: 'scheduled', recurrence_anchor: 'completion' });
  assert.equal(conflict.frontmatter.recurrenceAnchor, 'scheduled');
  assert.deepEqual(conflict.issues, [{ code: 'alias_conflict_ignored', field: 'recurrence_anchor' }]);
});

test('datetimes become canonical instants; dates and junk stay as they are', () => {
  assert.deepEqual(
    normalizeTemporalFields({
      dateCreated: '2026-02-20 10:00:00+02:00',
      dateModified: '2026-02-20',
      absoluteTime: 'soon',
      due: '2026-02-20 10:00:00+00:00',
    }),
    {
      dateCreated: '2026-02-20T08:00:00Z',
      dateModified: '2026-02-20',
      absoluteTime: 'soon',
      due: '2026-02-20 10:00:00+00:00',
    },
  );
});

test('overlapping instances resolve by policy', () => {
  const complete = ['2026-02-20', '2026-02-21', '2026-02-20'];
  assert.deepEqual(resolveInstanceOverlap(complete, ['2026-02-20']), {
    completeInstances: ['2026-02-20', '2026-02-21'],
    skippedInstances: [],
  });
  assert.deepEqual(resolveInstanceOverlap(complete, ['2026-02-20'], 'prefer_skip'), {
    completeInstances: ['2026-02-21'],
    skippedInstances: ['2026-02-20'],
  });
});

test('reports keep only numeric counters', () => {
  const report = migrationReport({
    filesScanned: 3,
    filesChanged: 1,
    warnings: { a: 2, b: 'x' },
    changes: {},
  });
  assert.deepEqual(report.warnings, { a: 2 });
  assert.equal(report.spec_version_from, 'legacy');
});
