/**
 * Reminders on the whole server, in process on a manual clock: absolute and relative reminders
 * fire at their exact instant, edits and deletions re-plan them (by the API and by another
 * program's edit), none fires twice, and a restart keeps the planned ones, fires those missed by at
 * most 15 minutes and skips older ones. The built executable fires reminders on the system clock
 * in reminders.test.ts.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startInProcessServer, type InProcessServer } from '../helpers/in-process-server.js';
import { ManualClock } from '../helpers/manual-clock.js';
import { subscribedReceiver, type Receiver } from '../helpers/receiver.js';
import { encodeId, waitFor } from '../helpers/server-process.js';
import { absoluteReminderNote, iso } from '../helpers/reminder-notes.js';
import { writeFiles } from '../helpers/temp.js';

const dir = 'TaskNotes/Tasks';
const HOUR = 3_600_000;

describe('reminders (in-process server, manual clock)', () => {
  const clock = new ManualClock();
  const t0 = clock.now();
  let server: InProcessServer;
  let receiver: Receiver;
  /** The reminders that fired, in order, with the clock's time when each was delivered. */
  const fired: Array<{ id: string; at: number; data: any }> = [];
  const firedIds = () => fired.map((f) => f.id);
  /** Moves the clock to `at` (absolute), letting deliveries of what fired arrive on the way. */
  const advanceTo = async (at: number) => {
    await clock.advance(at - clock.now());
    const expected = receiver.requests.length;
    // Deliveries start on a clock timer of 0 ms and then take real time: wait until quiet.
    let seen = -1;
    await waitFor(async () => {
      await clock.advance(0);
      await new Promise((r) => setTimeout(r, 30));
      const now = receiver.requests.length;
      const quiet = now === seen && now >= expected;
      seen = now;
      return quiet;
    });
    for (const r of receiver.requests.slice(fired.length)) {
      fired.push({ id: r.body.data.reminder.id, at: clock.now(), data: r.body.data });
    }
  };
  const create = async (title: string, body: Record<string, unknown>): Promise<string> => {
    const res = await server.request('POST', '/api/tasks', { title, ...body });
    assert.equal(res.status, 201, res.text);
    return res.body.data.path as string;
  };

  before(async () => {
    server = await startInProcessServer({
      clock,
      files: { [`${dir}/External.md`]: absoluteReminderNote('External', 'ext', t0 + HOUR) },
    });
    receiver = await subscribedReceiver(server, ['reminder.triggered']);
  });
  after(async () => {
    await server.cleanup();
    await receiver.close();
  });

  it('fires each at its exact instant, follows edits and deletions, and fires each once', async () => {
    await create('Absolute', { reminders: [{ id: 'abs', type: 'absolute', absoluteTime: iso(t0 + 2500) }] });
    await create('Relative', {
      due: iso(t0 + HOUR + 3000),
      reminders: [{ id: 'rel', type: 'relative', relatedTo: 'due', offset: '-PT1H' }],
    });
    const edited = await create('Edited', {
      reminders: [{ id: 'edit', type: 'absolute', absoluteTime: iso(t0 + 2000) }],
    });
    const deleted = await create('Deleted', {
      reminders: [{ id: 'del', type: 'absolute', absoluteTime: iso(t0 + 2000) }],
    });
    const moved = await server.request('PUT', `/api/tasks/${encodeId(edited)}`, {
      reminders: [{ id: 'edit', type: 'absolute', absoluteTime: iso(t0 + 4500) }],
    });
    assert.equal(moved.status, 200, moved.text);
    const removed = await server.request('PUT', `/api/tasks/${encodeId(deleted)}`, { reminders: [] });
    assert.equal(removed.status, 200, removed.text);
    // Another program moves the external note's reminder from an hour away to 4 s from t0.
    const external = `${dir}/External.md`;
    await writeFile(path.join(server.vault, external), absoluteReminderNote('External', 'ext', t0 + 4000));
    await waitFor(async () => {
      const res = await server.request('GET', `/api/tasks/${encodeId(external)}`);
      return res.body.data?.reminders?.[0]?.absoluteTime === iso(t0 + 4000);
    });

    await advanceTo(t0 + 2499);
    assert.deepEqual(firedIds(), [], 'the moved and the removed reminder did not fire at their old time');
    for (const [at, id] of [
      [t0 + 2500, 'abs'],
      [t0 + 3000, 'rel'],
      [t0 + 4000, 'ext'],
      [t0 + 4500, 'edit'],
    ] as const) {
      await advanceTo(at - 1);
      assert.ok(!firedIds().includes(id), `${id} fired early`);
      await advanceTo(at);
      assert.equal(fired.at(-1)?.id, id);
      assert.equal(fired.at(-1)?.at, at);
      assert.equal(fired.at(-1)?.data.notificationTime, iso(at));
      assert.equal(fired.at(-1)?.data.notificationType, 'system');
    }
    await advanceTo(t0 + 3 * HOUR);
    assert.deepEqual(firedIds(), ['abs', 'rel', 'ext', 'edit'], 'each fired once');
    const rel = fired.find((f) => f.id === 'rel')?.data;
    assert.equal(rel.message, 'Relative is due in 1 hour');
    assert.deepEqual(rel.reminder, { id: 'rel', type: 'relative', relatedTo: 'due', offset: '-PT1H' });
    assert.equal(rel.task.title, 'Relative');
  });

  it('across a restart: keeps planned ones, fires missed ones up to 15 min late, skips older, repeats none', async () => {
    const start = clock.now();
    await create('Pending', {
      reminders: [{ id: 'pending', type: 'absolute', absoluteTime: iso(start + 60_000) }],
    });
    const before = fired.length;
    await server.restart(async () => {
      await clock.advance(30_000); // the server is down
      const now = clock.now();
      await writeFiles(server.vault, {
        [`${dir}/Missed.md`]: absoluteReminderNote('Missed', 'missed', now - 10 * 60_000),
        [`${dir}/Stale.md`]: absoluteReminderNote('Stale', 'stale', now - 20 * 60_000),
        [`${dir}/Upcoming.md`]: absoluteReminderNote('Upcoming', 'upcoming', now + 10_000),
      });
    });
    const ready = clock.now();
    await advanceTo(ready);
    assert.deepEqual(firedIds().slice(before), ['missed'], 'caught up at start');
    await advanceTo(ready + 9_999);
    assert.deepEqual(firedIds().slice(before), ['missed']);
    await advanceTo(ready + 10_000);
    assert.deepEqual(firedIds().slice(before), ['missed', 'upcoming']);
    await advanceTo(start + 60_000);
    assert.deepEqual(firedIds().slice(before), ['missed', 'upcoming', 'pending']);
    await advanceTo(start + 5 * HOUR);
    assert.deepEqual(
      firedIds().slice(before),
      ['missed', 'upcoming', 'pending'],
      'none repeated, the stale one skipped',
    );
  });
});
