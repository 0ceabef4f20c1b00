/**
 * Reminders on the built executable, on the system clock: one fires on time (within 1 s) with no
 * request arriving, and one missed while the process was down fires when it starts again. The
 * rules in detail (edits, deletions, external edits, restarts) run in process on a manual clock
 * (reminder-routes.test.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { subscribedReceiver, type Receiver } from '../helpers/receiver.js';
import { startTestServer, waitFor, type TestServer } from '../helpers/server-process.js';
import { absoluteReminderNote, iso } from '../helpers/reminder-notes.js';
import { writeFiles } from '../helpers/temp.js';

const dir = 'TaskNotes/Tasks';

describe('reminders (real server)', () => {
  let server: TestServer;
  let receiver: Receiver;
  const fired = () =>
    receiver.requests
      .filter((r) => r.body.event === 'reminder.triggered')
      .map((r) => ({ id: r.body.data.reminder.id as string, at: r.at, data: r.body.data }));
  const ids = () =>
    fired()
      .map((f) => f.id)
      .sort();

  before(async () => {
    server = await startTestServer();
    receiver = await subscribedReceiver(server, ['reminder.triggered']);
  });
  after(async () => {
    await server.cleanup();
    await receiver.close();
  });

  it('fires on time with no request, and fires one missed while down when the process starts', async () => {
    const t0 = Date.now();
    const res = await server.request('POST', '/api/tasks', {
      title: 'Soon',
      reminders: [{ id: 'soon', type: 'absolute', absoluteTime: iso(t0 + 1500) }],
    });
    assert.equal(res.status, 201, res.text);
    await waitFor(() => fired().length >= 1, 5_000);
    const soon = fired()[0]!;
    assert.equal(soon.id, 'soon');
    const late = soon.at - (t0 + 1500);
    assert.ok(late >= -50 && late < 1000, `fired ${late} ms from its time`);
    assert.equal(soon.data.notificationTime, iso(t0 + 1500));

    assert.equal(await server.stop(), 0);
    await writeFiles(server.vault, {
      [`${dir}/Missed.md`]: absoluteReminderNote('Missed', 'missed', Date.now() - 60_000),
    });
    const restarted = await startTestServer({ vault: server.vault, dataDir: server.dataDir });
    try {
      await waitFor(() => fired().length >= 2, 5_000);
      await new Promise((r) => setTimeout(r, 500)); // anything repeated would show up now
      assert.deepEqual(ids(), ['missed', 'soon']);
    } finally {
      await restarted.stop();
    }
  });
});
