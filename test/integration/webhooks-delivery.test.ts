/**
 * Webhook delivery through a complete in-process server (HTTP routes + domain services on the
 * system clock): real retry timing, the API switch, counters across a restart, and a hanging
 * receiver that must not slow the API.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../../src/app.js';
import type { ServerConfig } from '../../src/config/config.js';
import { signTaskdown } from '../../src/core/webhooks/signer.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { sampleTask } from '../helpers/sample-task.js';
import { waitFor } from '../helpers/server-process.js';
import { localConfig } from '../helpers/in-process-server.js';
import { tempDir } from '../helpers/temp.js';

const task = sampleTask({ tags: [] });

async function api(server: RunningServer, method: string, pathname: string, body?: unknown) {
  const res = await fetch(server.url + pathname, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe('webhook delivery (in-process server)', () => {
  let vault: Awaited<ReturnType<typeof tempDir>>;
  let data: Awaited<ReturnType<typeof tempDir>>;
  let config: ServerConfig;
  let server: RunningServer;
  let receiver: Receiver;

  before(async () => {
    vault = await tempDir('taskdown-whd-vault-');
    data = await tempDir('taskdown-whd-data-');
    config = localConfig(vault.dir, data.dir);
    server = await startServer(config);
    receiver = await startReceiver();
  });
  after(async () => {
    await server.close();
    await receiver.close();
    await vault.cleanup();
    await data.cleanup();
  });

  it('retries with real 1 s, 2 s, 4 s backoff, then reports the delivery failed (end to end)', async () => {
    receiver.respond(() => 500);
    const { body } = await api(server, 'POST', '/api/webhooks', {
      url: receiver.url,
      events: ['task.deleted'],
    });
    const hook = body.data.webhook;
    server.services.events.emit('task.deleted', { task });
    const got = await receiver.waitFor(4, 12_000);
    // Never early; the upper bound leaves room for a loaded test machine.
    const gaps = got.slice(1).map((r, i) => r.at - (got[i] as { at: number }).at);
    gaps.forEach((gap, i) => {
      const expected = 1000 * 2 ** i;
      assert.ok(gap >= expected - 5 && gap < expected * 1.5 + 250, `gap ${gap} ms, expected ~${expected}`);
    });
    assert.equal(new Set(got.map((r) => r.headers['x-service-delivery-id'])).size, 1);
    for (const r of got)
      assert.equal(r.headers['x-service-signature'], signTaskdown(hook.secret, r.raw.toString()));
    const deliveries = await waitFor(async () => {
      const d = (await api(server, 'GET', '/api/webhooks/deliveries')).body.data.deliveries;
      return d[0]?.status === 'failed' ? d : undefined;
    });
    assert.deepEqual(
      [deliveries[0].attempts, deliveries[0].responseStatus, deliveries[0].error, deliveries[0].id],
      [4, 500, 'HTTP 500', got[0]?.headers['x-service-delivery-id']],
    );
    const listed = (await api(server, 'GET', '/api/webhooks')).body.data.webhooks[0];
    assert.deepEqual([listed.failureCount, listed.successCount, listed.active], [1, 0, true]);
    await api(server, 'DELETE', `/api/webhooks/${hook.id}`);
  });

  it('a receiver that hangs does not slow API calls', async () => {
    receiver.requests.length = 0;
    receiver.respond(() => ({ status: 200, delayMs: 30_000 }));
    const { body } = await api(server, 'POST', '/api/webhooks', {
      url: receiver.url,
      events: ['task.created', 'task.updated'],
    });
    for (let i = 0; i < 10; i++) {
      const started = Date.now();
      const res = await api(server, 'POST', '/api/tasks', { title: `Hanging ${i}` });
      assert.equal(res.status, 201);
      assert.ok(Date.now() - started < 1000, 'task created while deliveries hang');
    }
    await receiver.waitFor(10);
    const started = Date.now();
    const res = await api(server, 'PUT', `/api/tasks/${encodeURIComponent('TaskNotes/Tasks/Hanging 0.md')}`, {
      priority: 'high',
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.ok(Date.now() - started < 1000, 'task updated while deliveries hang');
    const pending = (await api(server, 'GET', '/api/webhooks/deliveries')).body.data.deliveries.filter(
      (d: any) => d.webhookId === body.data.webhook.id,
    );
    assert.ok(pending.length >= 10 && pending.every((d: any) => d.status === 'pending'));
    await api(server, 'DELETE', `/api/webhooks/${body.data.webhook.id}`);
  });

  it('delivers nothing while the HTTP API is switched off', async () => {
    receiver.requests.length = 0;
    receiver.respond(() => 200);
    await api(server, 'POST', '/api/webhooks', { id: 'off', url: receiver.url, events: ['time.started'] });
    await server.services.settings.update((s) => {
      s.apiEnabled = false;
    });
    try {
      server.services.events.emit('time.started', {
        task,
        session: { startTime: '2026-01-15T09:00:00.000Z' },
      });
      assert.equal((await api(server, 'GET', '/api/webhooks')).status, 503);
      await new Promise((r) => setTimeout(r, 150));
      assert.equal(receiver.requests.length, 0);
    } finally {
      await server.services.settings.update((s) => {
        s.apiEnabled = true;
      });
    }
    server.services.events.emit('time.started', { task, session: { startTime: '2026-01-15T09:00:00.000Z' } });
    await receiver.waitFor(1);
    await api(server, 'DELETE', '/api/webhooks/off');
  });

  it('persists counters and the delivery log across a restart', async () => {
    receiver.requests.length = 0;
    receiver.respond(() => 200);
    await api(server, 'POST', '/api/webhooks', {
      id: 'count',
      url: receiver.url,
      events: ['reminder.triggered'],
    });
    for (let i = 0; i < 30; i++) {
      server.services.events.emit('reminder.triggered', {
        task,
        reminder: { id: 'r1', type: 'relative', relatedTo: 'due', offset: '-PT15M', description: 'Soon' },
        notificationTime: '2026-01-15T09:00:00.000Z',
        message: 'Soon',
        notificationType: 'system',
      });
    }
    await receiver.waitFor(30);
    await waitFor(() => server.services.webhooks.get('count').successCount === 30);
    await server.close();
    server = await startServer(config);
    const hook = (await api(server, 'GET', '/api/webhooks')).body.data.webhooks.find(
      (h: any) => h.id === 'count',
    );
    assert.deepEqual([hook.successCount, hook.failureCount, typeof hook.lastTriggered], [30, 0, 'string']);
    const log = (await api(server, 'GET', '/api/webhooks/deliveries?webhookId=count')).body.data;
    assert.equal(log.total, 30);
    assert.ok(log.deliveries.every((d: any) => d.status === 'success' && d.attempts === 1));
  });
});
