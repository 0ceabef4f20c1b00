/** Reminder fire times and messages (as in the TaskNotes plugin) in a fixed zone. */
process.env.TZ = 'Europe/Berlin';

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { reminderFireTime, reminderMessage } from '../../../src/core/reminders/fire-time.js';
import type { Reminder, TaskInfo } from '../../../src/core/tasks/task-info.js';

const task = (extra: Partial<TaskInfo> = {}): TaskInfo =>
  ({ path: 'T.md', id: 'T.md', title: 'Pay rent', tags: [], projects: [], ...extra }) as TaskInfo;
const rel = (offset: string, relatedTo = 'due', extra: Partial<Reminder> = {}): Reminder => ({
  id: 'r',
  type: 'relative',
  relatedTo,
  offset,
  ...extra,
});
const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

describe('reminder fire time', () => {
  it('reads absolute times with an offset as instants and without one as local time', () => {
    const abs = (absoluteTime: string): Reminder => ({ id: 'a', type: 'absolute', absoluteTime });
    assert.equal(iso(reminderFireTime(task(), abs('2026-02-20T09:00:00Z'))), '2026-02-20T09:00:00.000Z');
    assert.equal(iso(reminderFireTime(task(), abs('2026-02-20T09:00:00+02:00'))), '2026-02-20T07:00:00.000Z');
    assert.equal(iso(reminderFireTime(task(), abs('2026-02-20T09:00'))), '2026-02-20T08:00:00.000Z');
    assert.equal(reminderFireTime(task(), abs('bad-time')), null);
  });

  it('adds negative and positive offsets to due or scheduled, date-only at local midnight', () => {
    const t = task({ due: '2026-03-10', scheduled: '2026-03-09T14:30' });
    assert.equal(iso(reminderFireTime(t, rel('-PT15M'))), '2026-03-09T22:45:00.000Z');
    assert.equal(iso(reminderFireTime(t, rel('P1D'))), '2026-03-10T23:00:00.000Z');
    assert.equal(iso(reminderFireTime(t, rel('-PT1H', 'scheduled'))), '2026-03-09T12:30:00.000Z');
    assert.equal(iso(reminderFireTime(t, rel('PT0M', 'scheduled'))), '2026-03-09T13:30:00.000Z');
  });

  it('skips relative reminders without an anchor or with a bad offset', () => {
    assert.equal(reminderFireTime(task(), rel('-PT15M')), null);
    assert.equal(reminderFireTime(task({ due: '2026-03-10' }), rel('+PT15M')), null);
    assert.equal(reminderFireTime(task({ due: '2026-03-10' }), rel('soon')), null);
    assert.equal(reminderFireTime(task({ due: '2026-03-10' }), rel('-PT15M', 'start')), null);
    assert.equal(reminderFireTime(task({ due: '2026-03-10' }), { id: 'x', type: 'weird' }), null);
  });
});

describe('reminder message', () => {
  it('prefers the description, else describes the anchor in the largest whole unit', () => {
    assert.equal(reminderMessage(task(), rel('-PT15M', 'due', { description: 'Bring keys' })), 'Bring keys');
    assert.equal(
      reminderMessage(task(), { id: 'a', type: 'absolute', absoluteTime: 'x' }),
      'Reminder: Pay rent',
    );
    assert.equal(reminderMessage(task(), rel('-PT15M')), 'Pay rent is due in 15 minutes');
    assert.equal(reminderMessage(task(), rel('-PT1M')), 'Pay rent is due in 1 minute');
    assert.equal(reminderMessage(task(), rel('-PT90M', 'scheduled')), 'Pay rent is scheduled in 1 hour');
    assert.equal(reminderMessage(task(), rel('-P2D')), 'Pay rent is due in 2 days');
    assert.equal(reminderMessage(task(), rel('PT2H')), 'Pay rent was due 2 hours ago');
    assert.equal(reminderMessage(task(), rel('PT0M')), 'Pay rent is due now');
  });
});
