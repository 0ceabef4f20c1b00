/**
 * The pomodoro on the built executable, on the system clock: a 6-second session survives a
 * restart of the process in its middle and completes on time with no request arriving. (6 s: the
 * stop and the new start must fit inside it, which took more than 3 s on a loaded 2-core machine.) The routes'
 * rules and the session's life in detail run in process on a manual clock (pomodoro-routes.test.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { subscribedReceiver, type Receiver } from '../helpers/receiver.js';
import { startTestServer, waitFor, type TestServer } from '../helpers/server-process.js';

const TASK = 'TaskNotes/Tasks/Focus.md';
const FILES = { [TASK]: '---\ntitle: Focus\nstatus: open\npriority: normal\ntags:\n  - task\n---\n' };

describe('pomodoro (real server)', () => {
  let server: TestServer;
  let receiver: Receiver;

  before(async () => {
    server = await startTestServer({ files: FILES });
    receiver = await subscribedReceiver(server, ['pomodoro.completed', 'time.stopped']);
  });
  after(async () => {
    await server.cleanup();
    await receiver.close();
  });

  it('runs a 6-second session to completion across a restart, with no request', async () => {
    const res = await server.request('POST', '/api/pomodoro/start', { taskId: TASK, duration: 0.1 });
    assert.equal(res.status, 200, res.text);
    const { id, startTime } = res.body.data.session;
    assert.equal(await server.stop(), 0);

    const restarted = await startTestServer({ vault: server.vault, dataDir: server.dataDir });
    try {
      const status = await restarted.request('GET', '/api/pomodoro/status');
      // The timer kept running in wall-clock time while the process was down.
      const expected = 6 - (Date.now() - Date.parse(startTime)) / 1000;
      assert.equal(status.body.data.currentSession?.id, id, 'still the same session');
      assert.equal(status.body.data.isRunning, true);
      assert.ok(
        Math.abs(status.body.data.timeRemaining - expected) <= 1.5,
        `${status.body.data.timeRemaining} s left, ~${expected} expected`,
      );
      const completed = await waitFor(
        () => receiver.requests.find((r) => r.body.event === 'pomodoro.completed')?.body.data,
        15_000,
      );
      assert.equal(completed.session.id, id);
      assert.equal(completed.task.path, TASK);
      const ran = Date.parse(completed.session.endTime) - Date.parse(completed.session.startTime);
      assert.ok(ran >= 6000 && ran < 6100, `ran ${ran} ms of wall-clock time`);
      const arrived = receiver.requests.find((r) => r.body.event === 'pomodoro.completed')!.at;
      assert.ok(
        arrived - Date.parse(startTime) < 7_500,
        `completed ${arrived - Date.parse(startTime)} ms after the start`,
      );
      await waitFor(() => receiver.requests.some((r) => r.body.event === 'time.stopped'));
    } finally {
      await restarted.stop();
    }
  });
});
