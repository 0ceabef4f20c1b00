/** Time entry rules (as in the TaskNotes plugin) with fixed instants. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { activeEntry, entryMinutes, startEntry, stopEntry } from '../../../src/core/time/entries.js';
import { isDomainError } from '../../../src/core/errors.js';

const T0 = Date.UTC(2026, 0, 15, 9, 0, 0);

describe('time entries', () => {
  it('starts a UTC entry with the default description and strips legacy durations', () => {
    const { entries, started } = startEntry(
      [{ startTime: '2026-01-14T08:00:00.000Z', endTime: '2026-01-14T08:30:00.000Z', duration: 30 } as never],
      T0,
    );
    assert.deepEqual(started, { startTime: '2026-01-15T09:00:00.000Z', description: 'Work session' });
    assert.deepEqual(Object.keys(started), ['startTime', 'description']);
    assert.equal(entries.length, 2);
    assert.equal('duration' in (entries[0] as object), false);
  });

  it('refuses a second start with the reference message', () => {
    const { entries } = startEntry([], T0, 'Deep work');
    assert.throws(
      () => startEntry(entries, T0 + 1000),
      (err) =>
        isDomainError(err) &&
        err.code === 'CONFLICT' &&
        err.message === 'Time tracking is already active for this task',
    );
  });

  it('stops the running entry and returns exactly that entry', () => {
    const entries = [
      { startTime: '2026-01-15T08:00:00.000Z', description: 'running' },
      { startTime: '2026-01-15T07:00:00.000Z', endTime: '2026-01-15T07:10:00.000Z', description: 'last' },
    ];
    const { entries: next, stopped } = stopEntry(entries, T0);
    assert.deepEqual(stopped, {
      startTime: '2026-01-15T08:00:00.000Z',
      description: 'running',
      endTime: '2026-01-15T09:00:00.000Z',
    });
    assert.deepEqual(next[0], stopped);
    assert.equal(activeEntry(next), undefined);
  });

  it('refuses to stop when nothing runs', () => {
    assert.throws(
      () => stopEntry([{ startTime: '2026-01-15T08:00:00.000Z', endTime: '2026-01-15T08:05:00.000Z' }], T0),
      (err) => isDomainError(err) && err.message === 'No active time tracking session for this task',
    );
    assert.throws(() => stopEntry(undefined, T0), /No active time tracking session/);
  });

  it('counts floored minutes, a running entry up to now', () => {
    assert.equal(
      entryMinutes({ startTime: '2026-01-15T08:00:00.000Z', endTime: '2026-01-15T08:01:59.999Z' }, T0),
      1,
    );
    assert.equal(entryMinutes({ startTime: '2026-01-15T08:00:30.000Z' }, T0), 59);
    assert.equal(entryMinutes({ startTime: 'garbage' }, T0), 0);
  });
});
