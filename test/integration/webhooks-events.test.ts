/**
 * Every event group reaches a receiver through the real server process, caused by real API
 * calls, a file written by another program and the service's own timers (pomodoro, reminders):
 * the engine only sees bus events, so this checks the wiring end to end.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { signTaskdown } from '../../src/core/webhooks/signer.js';
import { startReceiver, type ReceivedRequest, type Receiver } from '../helpers/receiver.js';
import { encodeId, startTestServer, waitFor, type TestServer } from '../helpers/server-process.js';

const localDay = (offsetDays = 0): string => {
  const d = new Date(Date.now() + offsetDays * 86_400_000);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

describe('webhook events from their sources (real server)', () => {
  let server: TestServer;
  let receiver: Receiver;
  let secret: string;
  let seen = 0;

  before(async () => {
    receiver = await startReceiver();
    server = await startTestServer();
    const res = await server.request('POST', '/api/webhooks', {
      url: receiver.url,
      events: [
        'task.created',
        'task.updated',
        'task.deleted',
        'task.completed',
        'task.archived',
        'task.unarchived',
        'time.started',
        'time.stopped',
        'pomodoro.started',
        'pomodoro.completed',
        'pomodoro.interrupted',
        'recurring.instance.completed',
        'recurring.instance.skipped',
        'reminder.triggered',
      ],
    });
    assert.equal(res.status, 201);
    secret = res.body.data.webhook.secret;
  });
  after(async () => {
    await server.cleanup();
    await receiver.close();
  });

  /** The next delivery of `event` after those already checked; verifies its signature. */
  async function next(
    event: string,
    timeoutMs = 5000,
    match: (r: ReceivedRequest) => boolean = () => true,
  ): Promise<ReceivedRequest> {
    const found: ReceivedRequest = await waitFor(
      () => receiver.requests.slice(seen).find((r) => r.headers['x-service-event'] === event && match(r)),
      timeoutMs,
    ).then((r) => r as ReceivedRequest);
    seen = receiver.requests.indexOf(found) + 1;
    assert.equal(found.headers['x-service-signature'], signTaskdown(secret, found.raw.toString('utf8')));
    assert.equal(found.body.event, event);
    assert.equal(found.body.vault.path, server.vault);
    return found;
  }
  const eventsSince = (from: number): string[] =>
    receiver.requests.slice(from).map((r) => String(r.headers['x-service-event']));

  async function createTask(body: Record<string, unknown>): Promise<string> {
    const res = await server.request('POST', '/api/tasks', body);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const created = await next('task.created');
    assert.equal(created.body.data.task.id, res.body.data.id);
    return res.body.data.id as string;
  }

  it('task events: created, updated, completed, archived, unarchived, deleted', async () => {
    const id = await createTask({ title: 'Write report', priority: 'high' });
    const put = await server.request('PUT', `/api/tasks/${encodeId(id)}`, { priority: 'low' });
    assert.equal(put.status, 200);
    const updated = await next('task.updated');
    assert.deepEqual([updated.body.data.task.priority, updated.body.data.previous.priority], ['low', 'high']);

    const before = receiver.requests.length;
    assert.equal((await server.request('POST', `/api/tasks/${encodeId(id)}/toggle-status`)).status, 200);
    const completed = await next('task.completed');
    assert.equal(completed.body.data.task.status, 'done');
    assert.equal('previous' in completed.body.data, false);

    assert.equal((await server.request('POST', `/api/tasks/${encodeId(id)}/archive`)).status, 200);
    const archived = await next('task.archived');
    assert.equal(archived.body.data.task.archived, true);
    const archivedId = archived.body.data.task.id as string;
    assert.equal((await server.request('POST', `/api/tasks/${encodeId(archivedId)}/archive`)).status, 200);
    const unarchived = await next('task.unarchived');
    assert.equal(unarchived.body.data.task.archived, false);
    assert.deepEqual(eventsSince(before), ['task.completed', 'task.archived', 'task.unarchived']);

    const currentId = unarchived.body.data.task.id as string;
    assert.equal((await server.request('DELETE', `/api/tasks/${encodeId(currentId)}`)).status, 200);
    assert.equal((await next('task.deleted')).body.data.task.title, 'Write report');
  });

  it('a note written by another program emits task.created', async () => {
    await writeFile(
      path.join(server.vault, 'External note.md'),
      '---\ntitle: External note\nstatus: open\npriority: normal\ntags:\n  - task\n---\n',
    );
    const created = await next('task.created', 8000);
    assert.equal(created.body.data.task.title, 'External note');
  });

  it('NLP creation emits task.created with source and originalText', async () => {
    const res = await server.request('POST', '/api/nlp/create', { text: 'Call the plumber tomorrow' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const created = await next('task.created');
    assert.equal(created.body.data.source, 'nlp');
    assert.equal(created.body.data.originalText, 'Call the plumber tomorrow');
  });

  it('time events: started and stopped with the session', async () => {
    const id = await createTask({ title: 'Tracked work' });
    assert.equal((await server.request('POST', `/api/tasks/${encodeId(id)}/time/start`)).status, 200);
    const started = await next('time.started');
    assert.equal(started.body.data.task.id, id);
    assert.match(started.body.data.session.startTime, /Z$/);
    assert.equal((await server.request('POST', `/api/tasks/${encodeId(id)}/time/stop`)).status, 200);
    const stopped = await next('time.stopped');
    assert.equal(stopped.body.data.session.startTime, started.body.data.session.startTime);
    assert.match(stopped.body.data.session.endTime, /Z$/);
  });

  it('pomodoro events: started, completed (its own timer), interrupted', async () => {
    const start = await server.request('POST', '/api/pomodoro/start', { duration: 1 / 60 });
    assert.equal(start.status, 200, JSON.stringify(start.body));
    const started = await next('pomodoro.started');
    const completed = await next('pomodoro.completed', 6000);
    assert.equal(completed.body.data.session.id, started.body.data.session.id);
    // A break may start by itself after a work session; stop whatever runs, then start anew.
    await server.request('POST', '/api/pomodoro/stop');
    const work = await server.request('POST', '/api/pomodoro/start', { duration: 5 });
    assert.equal(work.status, 200);
    const sessionId = work.body.data.session.id;
    const isWork = (r: ReceivedRequest): boolean => r.body.data.session.id === sessionId;
    await next('pomodoro.started', 5000, isWork);
    assert.equal((await server.request('POST', '/api/pomodoro/stop')).status, 200);
    const interrupted = await next('pomodoro.interrupted', 5000, isWork);
    assert.equal(interrupted.body.data.session.type, 'work');
  });

  it('recurring events: instance completed and virtual instance skipped', async () => {
    const id = await createTask({ title: 'Water plants', recurrence: 'FREQ=DAILY', scheduled: localDay() });
    const done = await server.request('POST', `/api/tasks/${encodeId(id)}/complete-instance`, {
      date: localDay(),
    });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    const completed = await next('recurring.instance.completed');
    assert.equal(completed.body.data.date, localDay());
    assert.equal(completed.body.data.task.id, id);
    const skip = await server.request('POST', `/api/tasks/${encodeId(id)}/skip-instance`, {
      date: localDay(2),
    });
    assert.equal(skip.status, 200, JSON.stringify(skip.body));
    const skipped = await next('recurring.instance.skipped');
    assert.equal(skipped.body.data.date, localDay(2));
  });

  it('reminder.triggered fires from the scheduler', async () => {
    const at = new Date(Date.now() + 1500).toISOString();
    await createTask({
      title: 'Dentist',
      reminders: [{ id: 'rem1', type: 'absolute', absoluteTime: at, description: 'Leave now' }],
    });
    const fired = await next('reminder.triggered', 8000);
    assert.equal(fired.body.data.task.title, 'Dentist');
    assert.equal(fired.body.data.reminder.id, 'rem1');
    assert.equal(typeof fired.body.data.notificationTime, 'string');
    assert.equal(typeof fired.body.data.message, 'string');
    assert.equal(typeof fired.body.data.notificationType, 'string');
  });

  it('every delivery so far succeeded and was counted', async () => {
    const { deliveries } = (await server.request('GET', '/api/webhooks/deliveries')).body.data;
    await waitFor(async () => {
      const d = (await server.request('GET', '/api/webhooks/deliveries')).body.data.deliveries;
      return d.every((x: any) => x.status === 'success');
    });
    const hook = (await server.request('GET', '/api/webhooks')).body.data.webhooks[0];
    assert.equal(hook.failureCount, 0);
    assert.ok(hook.successCount >= deliveries.length);
    const names = new Set(receiver.requests.map((r) => r.headers['x-service-event']));
    assert.equal(names.size, 14, `events seen: ${[...names].join(', ')}`);
  });
});
