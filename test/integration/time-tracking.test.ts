/** Time-tracking routes and their events against the real server process. */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { encodeId, startTestServer, type TestServer } from '../helpers/server-process.js';

const note = (title: string, extra = ''): string =>
  `---\ntitle: ${title}\nstatus: open\npriority: normal\ntags:\n  - task\n${extra}---\n\nBody\n`;

const A = 'TaskNotes/Tasks/Alpha.md';
const B = 'TaskNotes/Tasks/Beta.md';
const C = 'TaskNotes/Tasks/Gamma.md';
// Gamma runs an entry that is not the last one: time.stopped must carry the running one.
const GAMMA_ENTRIES =
  'timeEntries:\n' +
  '  - startTime: "2026-01-10T08:00:00.000Z"\n    description: running\n' +
  '  - startTime: "2026-01-09T08:00:00.000Z"\n    endTime: "2026-01-09T08:30:00.000Z"\n    description: old\n';

describe('time tracking routes', () => {
  let server: TestServer;
  let receiver: Receiver;
  const events = (name: string) =>
    receiver.requests.filter((r) => r.body.event === name).map((r) => r.body.data);

  before(async () => {
    server = await startTestServer({
      files: {
        [A]: note('Alpha'),
        [B]: note('Beta', 'projects:\n  - "[[Proj]]"\n'),
        [C]: note('Gamma', GAMMA_ENTRIES),
      },
    });
    receiver = await startReceiver();
    const hook = await server.request('POST', '/api/webhooks', {
      url: receiver.url,
      events: ['time.started', 'time.stopped', 'task.updated'],
    });
    assert.equal(hook.status, 201);
  });
  after(async () => {
    await server.cleanup();
    await receiver.close();
  });

  it('starts tracking: UTC entry in the note, the task in data, time.started with the session', async () => {
    const res = await server.request('POST', `/api/tasks/${encodeId(A)}/time/start`);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.success, true);
    assert.equal(res.body.data.path, A);
    const entry = res.body.data.timeEntries.at(-1);
    assert.match(entry.startTime, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.equal(entry.description, 'Work session');
    assert.equal(entry.endTime, undefined);
    const text = await readFile(path.join(server.vault, A), 'utf8');
    assert.match(
      text,
      new RegExp(
        `timeEntries:\\n  - startTime: "?${entry.startTime.replace(/\./g, '\\.')}"?\\n    description: Work session`,
      ),
    );

    await receiver.waitFor(1);
    const [started] = events('time.started');
    assert.deepEqual(started.session, entry);
    assert.equal(started.task.path, A);
    assert.equal(events('task.updated').length, 0, 'plain start emits no task.updated');
  });

  it('refuses a second start and a stop with nothing running, with the reference messages', async () => {
    const again = await server.request('POST', `/api/tasks/${encodeId(A)}/time/start`);
    assert.equal(again.status, 400);
    assert.deepEqual(again.body, { success: false, error: 'Time tracking is already active for this task' });
    const stop = await server.request('POST', `/api/tasks/${encodeId(B)}/time/stop`);
    assert.equal(stop.status, 400);
    assert.deepEqual(stop.body, { success: false, error: 'No active time tracking session for this task' });
  });

  it('tracks several tasks at once and lists them as active', async () => {
    const res = await server.request('POST', `/api/tasks/${encodeId(B)}/time/start-with-description`, {
      description: 'Writing',
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.message, 'Time tracking started with description: Writing');
    assert.equal(res.body.data.task.timeEntries.at(-1).description, 'Writing');
    await receiver.waitFor(3);
    assert.equal(events('time.started')[1].session.description, 'Writing');
    assert.equal(events('task.updated')[0].task.path, B);

    const active = await server.request('GET', '/api/time/active');
    assert.equal(active.status, 200);
    assert.equal(active.body.data.totalActiveSessions, 3);
    const ids = active.body.data.activeSessions.map((s: any) => s.task.id).sort();
    assert.deepEqual(ids, [A, B, C].sort());
    const beta = active.body.data.activeSessions.find((s: any) => s.task.id === B);
    assert.deepEqual(beta.task.projects, ['[[Proj]]']);
    assert.equal(beta.session.description, 'Writing');
  });

  it('stops the running entry and time.stopped carries that entry, not the last one', async () => {
    const res = await server.request('POST', `/api/tasks/${encodeId(C)}/time/stop`);
    assert.equal(res.status, 200, res.text);
    const stopped = res.body.data.timeEntries[0];
    assert.equal(stopped.description, 'running');
    assert.match(stopped.endTime, /Z$/);
    await receiver.waitFor(4);
    const [event] = events('time.stopped');
    assert.deepEqual(event.session, stopped);
    assert.equal(event.task.path, C);
  });

  it('reports a task and summarises periods', async () => {
    const report = await server.request('GET', `/api/tasks/${encodeId(C)}/time`);
    assert.equal(report.status, 200);
    assert.deepEqual(report.body.data.task, { id: C, title: 'Gamma', status: 'open', priority: 'normal' });
    assert.equal(report.body.data.summary.totalSessions, 2);
    assert.equal(report.body.data.summary.completedSessions, 2);
    assert.equal(report.body.data.activeSession, null);
    assert.equal(report.body.data.timeEntries[1].duration, 30);

    const custom = await server.request(
      'GET',
      '/api/time/summary?period=custom&from=2026-01-09&to=2026-01-10',
    );
    assert.equal(custom.status, 200);
    assert.equal(custom.body.data.period, 'custom');
    assert.deepEqual(custom.body.data.topTasks, [{ task: C, title: 'Gamma', minutes: 30 }]);
    assert.deepEqual(custom.body.data.dateRange, {
      from: '2026-01-09T00:00:00.000Z',
      to: '2026-01-10T00:00:00.000Z',
    });

    const today = await server.request('GET', '/api/time/summary');
    assert.equal(today.status, 200);
    assert.equal(today.body.data.period, 'today');
    assert.equal(today.body.data.summary.activeTasks, 0, 'entries under a minute are not counted');
  });

  it('answers bad input with the envelope: unknown task 404, bad dates 400', async () => {
    for (const [method, suffix] of [
      ['POST', '/time/start'],
      ['POST', '/time/stop'],
      ['POST', '/time/start-with-description'],
      ['GET', '/time'],
    ] as const) {
      const res = await server.request(
        method,
        `/api/tasks/${encodeId('TaskNotes/Tasks/Nope.md')}${suffix}`,
        method === 'POST' ? {} : undefined,
      );
      assert.equal(res.status, 404, suffix);
      assert.deepEqual(res.body, { success: false, error: 'Task not found' });
    }
    const bad = await server.request('GET', '/api/time/summary?period=custom&from=not-a-date');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.success, false);
    assert.match(bad.body.error, /from/);
    const wrongType = await server.request('POST', `/api/tasks/${encodeId(A)}/time/start-with-description`, {
      description: 5,
    });
    assert.equal(wrongType.status, 400);
    assert.equal(wrongType.body.success, false);
  });
});
