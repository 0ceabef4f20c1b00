import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultRoleMapping } from '../../../src/core/tasks/role-mapping.js';
import { validateTask } from '../../../src/core/validation/validate-task.js';

const valid = {
  title: 'T',
  status: 'open',
  dateCreated: '2026-03-01T09:00:00Z',
  dateModified: '2026-03-01T10:00:00Z',
  tags: ['task'],
};

test('a complete task has no issues', () => {
  const report = validateTask(valid, defaultRoleMapping(), { taskPath: 'tasks/T.md' });
  assert.deepEqual(report.allCodes, []);
  assert.equal(report.hasErrors, false);
});

test('every problem is reported with its code and field', () => {
  const report = validateTask(
    {
      ...valid,
      title: '',
      status: 'done',
      due: '2026-02-30',
      tags: 'task',
      dateModified: '2026-03-01T08:00:00Z',
      timeEntries: [{ startTime: '2026-02-20T09:00:00Z' }, { startTime: '2026-02-20T10:00:00Z' }],
      vendor: 'x',
    },
    defaultRoleMapping(),
  );
  assert.deepEqual(report.errorCodes.sort(), [
    'date_modified_before_created',
    'invalid_date_value',
    'invalid_type',
    'missing_required',
    'multiple_active_time_entries',
    'unresolvable_title',
  ]);
  assert.deepEqual(report.infoCodes, ['unknown_field']);
  assert.equal(report.issues.find((i) => i.code === 'invalid_date_value')?.field, 'due');
});

test('strict schemas turn unknown fields into errors; date-only timestamps compare by day', () => {
  const strict = validateTask({ ...valid, vendor: 'x' }, defaultRoleMapping(), { rejectUnknownFields: true });
  assert.deepEqual(strict.errorCodes, ['unknown_field']);
  const days = validateTask(
    { ...valid, dateCreated: '2026-03-10', dateModified: '2026-03-01' },
    defaultRoleMapping(),
  );
  assert.deepEqual(days.errorCodes, ['date_modified_before_created']);
});
