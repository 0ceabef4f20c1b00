import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  canonicalInstant,
  removeEntryAt,
  stopsOnCompletion,
  timeEntriesIssue,
  trackedTotals,
  validateTimeEntries,
} from '../../../src/core/time/entry-rules.js';

test('validation canonicalises instants, drops the derived duration and keeps other keys', () => {
  assert.deepEqual(
    validateTimeEntries([
      {
        startTime: '2026-02-20T11:00:00+02:00',
        endTime: '2026-02-20T10:00:00.500Z',
        duration: 60,
        description: 'x',
      },
    ]),
    [{ startTime: '2026-02-20T09:00:00Z', endTime: '2026-02-20T10:00:00.500Z', description: 'x' }],
  );
  assert.equal(canonicalInstant(new Date(Date.UTC(2026, 0, 1))), '2026-01-01T00:00:00Z');
});

test('validation reports the spec code of the first problem', () => {
  const cases: Array<[unknown, RegExp]> = [
    ['x', /invalid_time_entries/],
    [[1], /invalid_time_entry/],
    [[{ endTime: '2026-02-20T10:00:00Z' }], /missing_time_entry_start/],
    [[{ startTime: 'soon' }], /invalid_time_entry_start/],
    [[{ startTime: '2026-02-20T10:00:00Z', endTime: 'later' }], /invalid_time_entry_end/],
    [[{ startTime: '2026-02-20T10:00:00Z', endTime: '2026-02-20T09:00:00Z' }], /invalid_time_range/],
    [
      [{ startTime: '2026-02-20T09:00:00Z' }, { startTime: '2026-02-20T10:00:00Z' }],
      /multiple_active_time_entries/,
    ],
  ];
  for (const [raw, code] of cases) assert.throws(() => validateTimeEntries(raw), code);
});

test('the message after the code names the entry and says what is wrong', () => {
  const entries = [
    { startTime: '2026-02-20T08:00:00Z', endTime: '2026-02-20T08:30:00Z' },
    { startTime: '2026-02-20T10:00:00Z', endTime: '2026-02-20T09:00:00Z' },
  ];
  assert.throws(() => validateTimeEntries(entries), {
    message: 'invalid_time_range: entry 2: endTime is before startTime',
  });
  assert.deepEqual(timeEntriesIssue([{ startTime: 'yesterday' }]), {
    code: 'invalid_time_entry_start',
    message: 'entry 1: startTime is not a date-time',
  });
});

test('totals, removal and auto-stop', () => {
  const entries = validateTimeEntries([
    { startTime: '2026-02-20T09:00:00Z', endTime: '2026-02-20T10:00:00Z' },
    { startTime: '2026-02-20T11:00:00Z' },
  ]);
  assert.deepEqual(trackedTotals(entries, Date.parse('2026-02-20T11:30:00Z')), { closed: 60, live: 90 });
  assert.deepEqual(removeEntryAt(entries, 0), [entries[1]]);
  assert.throws(() => removeEntryAt(entries, 5), /time_entry_not_found/);
  assert.equal(stopsOnCompletion(true, true, entries), true);
  assert.equal(stopsOnCompletion(true, false, entries), false);
  assert.equal(stopsOnCompletion(true, true, [entries[0]!]), false);
});
