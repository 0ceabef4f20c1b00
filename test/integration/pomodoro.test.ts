/**
 * The pomodoro end to end on the real server process: a 3-second session completes with no
 * request arriving and emits its events; a session survives a restart in the middle.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { startTestServer, waitFor, type TestServer } from '../helpers/server-process.js';

const TASK = 'TaskNotes/Tasks/Focus.md';
const FILES = { [TASK]: '---\ntitle: Focus\nstatus: open\npriority: normal\ntags:\n  - task\n---\n' };
const POMODORO_EVENTS = [
  'pomodoro.started',
  'pomodoro.completed',
  'pomodoro.interrupted',
  'time.started',
  'time.stopped',
];

describe('pomodoro (real server)', () => {
  let server: TestServer;
  let receiver: Receiver;
  const names = () => receiver.requests.map((r) => r.body.event);
  const event = (name: string) => receiver.requests.find((r) => r.body.event === name)?.body.data;

  before(async () => {
    server = await startTestServer({ files: FILES });
    receiver = await startReceiver();
    const hook = await server.request('POST', '/api/webhooks', {
      url: receiver.url,
      events: POMODORO_EVENTS,
    });
    assert.equal(hook.status, 201, hook.text);
  });
  after(async () => {
    await server.cleanup();
    await receiver.close();
  });

  it('rejects bad input with the envelope and changes nothing', async () => {
    const unknown = await server.request('POST', '/api/pomodoro/start', {
      taskId: 'TaskNotes/Tasks/Nope.md',
    });
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.body, { success: false, error: 'Task not found' });
    for (const duration of ['abc', '', true, null, { m: 1 }]) {
      const res = await server.request('POST', '/api/pomodoro/start', { duration });
      assert.equal(res.status, 400, JSON.stringify(duration));
      assert.deepEqual(res.body, { success: false, error: 'duration must be a number of minutes' });
    }
    for (const [route, error] of [
      ['stop', 'No active pomodoro session to stop'],
      ['pause', 'No running pomodoro session to pause'],
      ['resume', 'No paused session to resume'],
    ]) {
      const res = await server.request('POST', `/api/pomodoro/${route}`);
      assert.equal(res.status, 400, route);
      assert.deepEqual(res.body, { success: false, error });
    }
    const badDate = await server.request('GET', '/api/pomodoro/sessions?date=yesterday');
    assert.equal(badDate.status, 400);
    assert.equal(badDate.body.success, false);
    const badDay = await server.request('GET', '/api/pomodoro/stats?date=2026-02-30');
    assert.equal(badDay.status, 400);
    const status = await server.request('GET', '/api/pomodoro/status');
    assert.equal(status.body.data.isRunning, false);
    assert.equal(status.body.data.timeRemaining, 1500);
    assert.equal(receiver.requests.length, 0);
  });

  it('runs a 3-second session on a task to completion without any request', async () => {
    const started = Date.now();
    const res = await server.request('POST', '/api/pomodoro/start', { taskId: TASK, duration: 0.05 });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.message, 'Pomodoro session started');
    assert.equal(res.body.data.session.type, 'work');
    assert.equal(res.body.data.session.plannedDuration, 0.05);
    assert.equal(res.body.data.session.taskPath, TASK);
    assert.equal(res.body.data.task.path, TASK);
    assert.match(res.body.data.session.startTime, /[+-]\d{2}:\d{2}$/);

    const running = await server.request('POST', '/api/pomodoro/start', {});
    assert.equal(running.status, 400);
    assert.equal(
      running.body.error,
      'Pomodoro session is already running. Stop or pause the current session first.',
    );

    await receiver.waitFor(4, 10_000);
    const elapsed = Date.now() - started;
    assert.ok(elapsed >= 2900 && elapsed < 5000, `completed after ${elapsed} ms`);
    assert.deepEqual(names().slice(0, 4), [
      'time.started',
      'pomodoro.started',
      'time.stopped',
      'pomodoro.completed',
    ]);
    const completed = event('pomodoro.completed');
    assert.equal(completed.session.completed, true);
    assert.equal(completed.session.id, res.body.data.session.id);
    assert.equal(completed.task.path, TASK);
    // Tracking on the task ends exactly when the session reached its planned time.
    const stopped = event('time.stopped');
    assert.equal(stopped.task.path, TASK);
    assert.equal(Date.parse(stopped.session.endTime), Date.parse(completed.session.endTime));
    const ran = Date.parse(completed.session.endTime) - Date.parse(completed.session.startTime);
    assert.ok(ran >= 3000 && ran < 3100, `session ran ${ran} ms`);

    const status = await waitFor(async () => {
      const s = await server.request('GET', '/api/pomodoro/status');
      return s.body.data.currentSession?.type === 'short-break' ? s.body.data : undefined;
    });
    assert.equal(status.isRunning, true, 'the break starts by itself');
    assert.equal(status.totalPomodoros, 1);
    const stats = await server.request('GET', '/api/pomodoro/stats');
    assert.equal(stats.body.data.pomodorosCompleted, 1);
    assert.equal(stats.body.data.completionRate, 100);
    const sessions = await server.request('GET', '/api/pomodoro/sessions?limit=5');
    assert.equal(sessions.body.data.total, 1);
    assert.equal(sessions.body.data.sessions[0].completed, true);

    // Stopping the break interrupts it (no task: no time.stopped).
    const stop = await server.request('POST', '/api/pomodoro/stop');
    assert.deepEqual(stop.body, { success: true, data: { message: 'Pomodoro session stopped and reset' } });
    await waitFor(() => names().includes('pomodoro.interrupted'));
    assert.equal(event('pomodoro.interrupted').session.type, 'short-break');
    assert.equal(event('pomodoro.interrupted').task, null);
  });

  it('pauses and resumes with the remaining time', async () => {
    await server.request('POST', '/api/pomodoro/start', { duration: 1 });
    await new Promise((r) => setTimeout(r, 1100));
    const pause = await server.request('POST', '/api/pomodoro/pause');
    assert.equal(pause.status, 200);
    assert.equal(pause.body.data.message, 'Pomodoro session paused');
    assert.ok(
      pause.body.data.timeRemaining >= 56 && pause.body.data.timeRemaining <= 59,
      String(pause.body.data.timeRemaining),
    );
    await new Promise((r) => setTimeout(r, 1100));
    const resume = await server.request('POST', '/api/pomodoro/resume');
    assert.equal(resume.body.data.message, 'Pomodoro session resumed');
    assert.equal(resume.body.data.timeRemaining, pause.body.data.timeRemaining);
    const again = await server.request('POST', '/api/pomodoro/resume');
    assert.deepEqual(again.body, { success: false, error: 'Pomodoro session is already running' });
    await server.request('POST', '/api/pomodoro/stop');
  });

  it('resumes a running session after a restart with the right remaining time', async () => {
    const res = await server.request('POST', '/api/pomodoro/start', { taskId: TASK, duration: 0.2 });
    assert.equal(res.status, 200);
    const { id, startTime } = res.body.data.session;
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(await server.stop(), 0);
    const saved = JSON.parse(await readFile(path.join(server.dataDir, 'pomodoro.json'), 'utf8'));
    assert.equal(saved.pomodoroState.isRunning, true);
    assert.equal(saved.pomodoroState.currentSession.id, id);

    const before = receiver.requests.length;
    const restarted = await startTestServer({ vault: server.vault, dataDir: server.dataDir });
    try {
      const status = await restarted.request('GET', '/api/pomodoro/status');
      // The timer kept running in wall-clock time while the server was down.
      const expected = 12 - (Date.now() - Date.parse(startTime)) / 1000;
      assert.equal(status.body.data.currentSession?.id, id, 'still the same session');
      assert.equal(status.body.data.isRunning, true);
      assert.ok(
        Math.abs(status.body.data.timeRemaining - expected) <= 1.5,
        `${status.body.data.timeRemaining} s left, ~${expected} expected`,
      );
      const completedEvent = () =>
        receiver.requests.slice(before).find((r) => r.body.event === 'pomodoro.completed')?.body.data;
      const completed = await waitFor(completedEvent, 15_000);
      assert.equal(completed.session.id, id);
      const ran = Date.parse(completed.session.endTime) - Date.parse(completed.session.startTime);
      assert.ok(ran >= 12_000 && ran < 12_100, `ran ${ran} ms of wall-clock time`);
    } finally {
      await restarted.stop();
    }
  });
});
