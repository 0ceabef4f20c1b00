import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  addReminder,
  removeReminder,
  updateReminder,
} from '../../../src/conformance/policy/reminder-edit.js';
import { reminderEntryIssue, reminderSetIssue } from '../../../src/core/reminders/entry.js';
import { normalizeReminderList } from '../../../src/core/reminders/normalize.js';
import { isReminderOffset, relativeTriggerInstant } from '../../../src/core/reminders/offsets.js';

test('entry validation reports the first spec issue code', () => {
  assert.equal(reminderEntryIssue({ id: 'r1', type: 'relative', relatedTo: 'due', offset: '-PT15M' }), null);
  assert.equal(
    reminderEntryIssue({ id: 'r1', type: 'absolute', absoluteTime: '2026-02-20T09:00:00+02:00' }),
    null,
  );
  assert.equal(reminderEntryIssue({ id: '', type: 'relative' }), 'invalid_reminder_entry');
  assert.equal(
    reminderEntryIssue({ id: 'r1', type: 'absolute', absoluteTime: '2026-02-20T09:00:00' }),
    'invalid_reminder_absolute_time',
  );
  assert.equal(
    reminderEntryIssue({ id: 'r1', type: 'relative', relatedTo: 'start', offset: 'PT0M' }),
    'invalid_reminder_related_to',
  );
  assert.equal(
    reminderEntryIssue({ id: 'r1', type: 'relative', relatedTo: 'due', offset: '+PT15M' }),
    'invalid_reminder_offset',
  );
  assert.equal(reminderEntryIssue({ id: 'r1', type: 'later' }), 'invalid_reminder_type');
});

test('set validation: unique ids and a present base field', () => {
  const rel = { id: 'r1', type: 'relative', relatedTo: 'due', offset: '-PT15M' };
  assert.equal(reminderSetIssue([rel], { due: '2026-02-20' }), null);
  assert.equal(reminderSetIssue([rel], {}), 'unresolvable_reminder_base');
  assert.equal(reminderSetIssue([rel, { ...rel }], { due: '2026-02-20' }), 'duplicate_reminder_id');
});

test('relative triggers: datetime bases exactly, date-only bases at the local anchor time', () => {
  assert.equal(
    relativeTriggerInstant('2026-02-20T10:00:00Z', '-PT15M')?.toISOString(),
    '2026-02-20T09:45:00.000Z',
  );
  const dayBased = relativeTriggerInstant('2026-02-20', 'PT0M', '09:30')!;
  assert.deepEqual([dayBased.getDate(), dayBased.getHours(), dayBased.getMinutes()], [20, 9, 30]);
  assert.equal(relativeTriggerInstant('', '-PT15M'), null);
  assert.equal(relativeTriggerInstant('2026-02-20', 'soon'), null);
  assert.equal(isReminderOffset('P1D'), true);
});

test('edits validate, patch by id and never mutate their input', () => {
  const current = [{ id: 'r1', type: 'relative', relatedTo: 'due', offset: '-PT1H' }];
  const updated = updateReminder(current, 'r1', { offset: '-PT30M' });
  assert.equal(updated[0]!.offset, '-PT30M');
  assert.equal(current[0]!.offset, '-PT1H');
  assert.throws(() => updateReminder(current, 'r9', {}), /reminder_not_found/);
  assert.throws(() => addReminder(current, { id: 'r2', type: 'relative' }), /invalid_reminder_related_to/);
  assert.deepEqual(removeReminder(current, 'r1'), []);
  assert.deepEqual(removeReminder(current, 'missing'), current);
});

test('normalization canonicalises absolute times and generates unique ids', () => {
  const { reminders, generatedIds } = normalizeReminderList(
    [
      { id: 'reminder-1', type: 'absolute', absoluteTime: '2026-02-20 09:00:00+00:00' },
      { type: 'relative' },
      'junk',
    ],
    { generateIds: true },
  );
  assert.equal(generatedIds, 1);
  assert.equal(reminders.length, 2);
  assert.equal(reminders[0]!.absoluteTime, '2026-02-20T09:00:00Z');
  assert.equal(reminders[1]!.id, 'reminder-2');
});
