/**
 * The pomodoro routes and their events on the whole server, in process on a manual clock: a
 * 25-minute session completes at its planned instant with no request arriving, the break starts
 * by itself, pause and resume keep the remaining time, and a session keeps running in wall-clock
 * time across a restart. The built executable runs a short session on the system clock in
 * pomodoro.test.ts.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startInProcessServer, type InProcessServer } from '../helpers/in-process-server.js';
import { ManualClock } from '../helpers/manual-clock.js';
import { subscribedReceiver, type Receiver } from '../helpers/receiver.js';
import { waitFor } from '../helpers/server-process.js';

const TASK = 'TaskNotes/Tasks/Focus.md';
const FILES = { [TASK]: '---\ntitle: Focus\nstatus: open\npriority: normal\ntags:\n  - task\n---\n' };
const POMODORO_EVENTS = [
  'pomodoro.started',
  'pomodoro.completed',
  'pomodoro.interrupted',
  'time.started',
  'time.stopped',
];
const MINUTE = 60_000;

describe('pomodoro routes (in-process server, manual clock)', () => {
  const clock = new ManualClock();
  let server: InProcessServer;
  let receiver: Receiver;
  const names = () => receiver.requests.map((r) => r.body.event as string);
  const event = (name: string) => receiver.requests.find((r) => r.body.event === name)?.body.data;
  /** Lets the clock's due timers (deliveries start on one) run until `count` requests arrived. */
  const delivered = (count: number) =>
    waitFor(async () => {
      await clock.advance(0);
      return receiver.requests.length >= count;
    });

  before(async () => {
    server = await startInProcessServer({ clock, files: FILES });
    receiver = await subscribedReceiver(server, POMODORO_EVENTS);
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
    await clock.advance(0);
    assert.equal(receiver.requests.length, 0);
  });

  it('completes a 25-minute session at its planned instant with no request, then starts the break', async () => {
    const res = await server.request('POST', '/api/pomodoro/start', { taskId: TASK });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.message, 'Pomodoro session started');
    const session = res.body.data.session;
    assert.equal(session.type, 'work');
    assert.equal(session.plannedDuration, 25);
    assert.equal(session.taskPath, TASK);
    assert.equal(res.body.data.task.path, TASK);
    assert.match(session.startTime, /[+-]\d{2}:\d{2}$/);
    const running = await server.request('POST', '/api/pomodoro/start', {});
    assert.equal(running.status, 400);
    assert.equal(
      running.body.error,
      'Pomodoro session is already running. Stop or pause the current session first.',
    );
    await delivered(2);
    assert.deepEqual(names(), ['time.started', 'pomodoro.started']);

    await clock.advance(25 * MINUTE - 1);
    await clock.advance(0);
    assert.equal(event('pomodoro.completed'), undefined, 'not a millisecond early');
    await clock.advance(1);
    await delivered(4);
    assert.deepEqual(names(), ['time.started', 'pomodoro.started', 'time.stopped', 'pomodoro.completed']);
    const completed = event('pomodoro.completed');
    assert.equal(completed.session.completed, true);
    assert.equal(completed.session.id, session.id);
    assert.equal(completed.task.path, TASK);
    assert.equal(
      Date.parse(completed.session.endTime) - Date.parse(completed.session.startTime),
      25 * MINUTE,
    );
    // Tracking on the task ends exactly when the session reached its planned time.
    const stopped = event('time.stopped');
    assert.equal(stopped.task.path, TASK);
    assert.equal(Date.parse(stopped.session.endTime), Date.parse(completed.session.endTime));

    await clock.advance(1_000);
    await delivered(5);
    assert.equal(names()[4], 'pomodoro.started');
    assert.equal(receiver.requests[4]!.body.data.session.type, 'short-break');
    const status = (await server.request('GET', '/api/pomodoro/status')).body.data;
    assert.equal(status.currentSession?.type, 'short-break', 'the break starts by itself');
    assert.equal(status.isRunning, true);
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
    await delivered(6);
    assert.equal(names()[5], 'pomodoro.interrupted');
    assert.equal(event('pomodoro.interrupted').session.type, 'short-break');
    assert.equal(event('pomodoro.interrupted').task, null);
  });

  it('pauses and resumes with the remaining time; paused time does not count', async () => {
    await server.request('POST', '/api/pomodoro/start', { duration: 1 });
    await clock.advance(10_000);
    const pause = await server.request('POST', '/api/pomodoro/pause');
    assert.equal(pause.status, 200);
    assert.equal(pause.body.data.message, 'Pomodoro session paused');
    assert.equal(pause.body.data.timeRemaining, 50);
    await clock.advance(5 * MINUTE);
    const resume = await server.request('POST', '/api/pomodoro/resume');
    assert.equal(resume.body.data.message, 'Pomodoro session resumed');
    assert.equal(resume.body.data.timeRemaining, 50);
    const again = await server.request('POST', '/api/pomodoro/resume');
    assert.deepEqual(again.body, { success: false, error: 'Pomodoro session is already running' });
    await server.request('POST', '/api/pomodoro/stop');
  });

  it('keeps a session running in wall-clock time across a restart and completes it on time', async () => {
    const res = await server.request('POST', '/api/pomodoro/start', { taskId: TASK });
    assert.equal(res.status, 200);
    const { id } = res.body.data.session;
    await clock.advance(10 * MINUTE);
    await server.restart(async () => {
      const saved = JSON.parse(await readFile(path.join(server.dataDir, 'pomodoro.json'), 'utf8'));
      assert.equal(saved.pomodoroState.isRunning, true);
      assert.equal(saved.pomodoroState.currentSession.id, id);
      await clock.advance(5 * MINUTE); // the server is down
    });
    const status = await server.request('GET', '/api/pomodoro/status');
    assert.equal(status.body.data.currentSession?.id, id, 'still the same session');
    assert.equal(status.body.data.isRunning, true);
    assert.equal(status.body.data.timeRemaining, 10 * 60);

    const before = receiver.requests.length;
    await clock.advance(10 * MINUTE);
    const completed = await waitFor(async () => {
      await clock.advance(0);
      return receiver.requests.slice(before).find((r) => r.body.event === 'pomodoro.completed')?.body.data;
    });
    assert.equal(completed.session.id, id);
    assert.equal(
      Date.parse(completed.session.endTime) - Date.parse(completed.session.startTime),
      25 * MINUTE,
    );
  });

  it('follows its task when the task is renamed, and stops tracking on it there', async () => {
    await server.request('POST', '/api/pomodoro/stop'); // the break the last test's session began
    const created = await server.request('POST', '/api/tasks', { title: 'Focus A' });
    assert.equal(created.status, 201, created.text);
    const start = await server.request('POST', '/api/pomodoro/start', {
      taskId: created.body.data.path,
      duration: 1,
    });
    assert.equal(start.status, 200, start.text);
    const renamed = await server.request('PUT', `/api/tasks/${encodeURIComponent(created.body.data.path)}`, {
      title: 'Focus B',
    });
    assert.equal(renamed.status, 200, renamed.text);
    const moved = renamed.body.data.path as string;
    assert.notEqual(moved, created.body.data.path);
    assert.equal(
      (await server.request('GET', '/api/pomodoro/status')).body.data.currentSession?.taskPath,
      moved,
    );

    const before = receiver.requests.length;
    await clock.advance(MINUTE);
    const completed = await waitFor(async () => {
      await clock.advance(0);
      return receiver.requests.slice(before).find((r) => r.body.event === 'pomodoro.completed')?.body.data;
    });
    assert.equal(completed.task?.path, moved);
    const stopped = receiver.requests.slice(before).find((r) => r.body.event === 'time.stopped')?.body.data;
    assert.equal(stopped?.task.path, moved, 'tracking stopped on the renamed task');
    const active = await server.request('GET', '/api/time/active');
    assert.deepEqual(
      (active.body.data.activeSessions as Array<{ task: { path: string } }>).map((s) => s.task.path),
      [],
      'no time entry left running',
    );
    await server.request('POST', '/api/pomodoro/stop');
  });
});
