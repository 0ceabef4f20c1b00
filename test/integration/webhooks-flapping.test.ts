/**
 * 1,000 events to a receiver that keeps going down and up (503s and dropped connections): every
 * event is delivered at least once, and once the webhook is deleted nothing more is sent. An
 * in-process server on the system clock, so the retries run in real time.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../../src/app.js';
import { sampleTask } from '../helpers/sample-task.js';
import { waitFor } from '../helpers/server-process.js';
import { localConfig } from '../helpers/in-process-server.js';
import { tempDir } from '../helpers/temp.js';

interface Flapping {
  url: string;
  /** Markers of the requests answered 2xx, with how often each arrived at all. */
  delivered: Set<string>;
  arrivals: Array<{ marker: string; at: number }>;
  mode: 'flap' | 'up' | 'down';
  close(): Promise<void>;
}

async function startFlapping(): Promise<Flapping> {
  const started = Date.now();
  const state: Flapping = {
    url: '',
    delivered: new Set(),
    arrivals: [],
    mode: 'flap',
    close: async () => {},
  };
  let drop = false;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const marker = String(JSON.parse(Buffer.concat(chunks).toString('utf8')).data.task.title);
      state.arrivals.push({ marker, at: Date.now() });
      // Flapping: 200 ms up, 200 ms down; down answers 503 or drops the connection, in turn.
      const up =
        state.mode === 'up' || (state.mode === 'flap' && Math.floor((Date.now() - started) / 200) % 2 === 0);
      if (up) {
        state.delivered.add(marker);
        res.writeHead(204).end();
      } else if ((drop = !drop)) {
        req.socket.destroy();
      } else {
        res.writeHead(503).end('down');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}

const api = async (server: RunningServer, method: string, pathname: string, body?: unknown) => {
  const res = await fetch(server.url + pathname, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
};

describe('1,000 events to a flapping receiver (in-process server, real time)', () => {
  let vault: Awaited<ReturnType<typeof tempDir>>;
  let data: Awaited<ReturnType<typeof tempDir>>;
  let server: RunningServer;
  let receiver: Flapping;
  before(async () => {
    vault = await tempDir('taskdown-flap-vault-');
    data = await tempDir('taskdown-flap-data-');
    server = await startServer(localConfig(vault.dir, data.dir, { webhookTimeoutMs: 5000 }));
    receiver = await startFlapping();
  });
  after(async () => {
    await server.close();
    await receiver.close();
    await vault.cleanup();
    await data.cleanup();
  });

  it('delivers every event at least once, and nothing after the webhook is deleted', async () => {
    const { body } = await api(server, 'POST', '/api/webhooks', {
      url: receiver.url,
      events: ['task.created'],
      retrySchedule: Array(20).fill(0.5),
    });
    const hook = body.data.webhook;
    const emit = (title: string) =>
      server.services.events.emit('task.created', { task: sampleTask({ title }) });
    for (let batch = 0; batch < 20; batch++) {
      for (let i = 0; i < 50; i++) emit(`E${batch * 50 + i}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    // Let it flap a little longer, then stay up while the retries finish.
    await new Promise((r) => setTimeout(r, 1000));
    receiver.mode = 'up';
    await waitFor(() => receiver.delivered.size === 1000, 60_000, 50);
    const log = await waitFor(async () => {
      const page = (await api(server, 'GET', `/api/webhooks/deliveries?webhookId=${hook.id}&limit=1000`)).body
        .data;
      return page.deliveries.every((d: any) => d.status === 'success') ? page : undefined;
    }, 15_000);
    assert.equal(log.total, 1000);
    const retried = log.deliveries.filter((d: any) => d.attempts > 1).length;
    assert.ok(retried > 0, 'the receiver did refuse some attempts');
    const listed = (await api(server, 'GET', `/api/webhooks/${hook.id}`)).body.data.webhook;
    assert.deepEqual([listed.active, listed.successCount, listed.failureCount], [true, 1000, 0]);

    // Receiver down, events pending their retries, then the webhook is deleted.
    receiver.mode = 'down';
    for (let i = 0; i < 50; i++) emit(`L${i}`);
    await waitFor(async () => {
      const page = (await api(server, 'GET', `/api/webhooks/deliveries?webhookId=${hook.id}&limit=50`)).body
        .data;
      return page.deliveries.every((d: any) => d.event === 'task.created' && d.attempts >= 1);
    }, 15_000);
    assert.equal((await api(server, 'DELETE', `/api/webhooks/${hook.id}`)).status, 200);
    // An attempt already on the wire when the DELETE was handled may still arrive (it was aborted,
    // but the bytes were sent); the next retry would come 500 ms later. After 300 ms, nothing may.
    await new Promise((r) => setTimeout(r, 300));
    const quietFrom = Date.now();
    receiver.mode = 'up';
    await new Promise((r) => setTimeout(r, 2000));
    assert.deepEqual(
      receiver.arrivals.filter((a) => a.at >= quietFrom),
      [],
      'nothing is sent after the webhook was deleted',
    );
    assert.equal([...receiver.delivered].filter((m) => m.startsWith('L')).length, 0);
    const ended = (await api(server, 'GET', `/api/webhooks/deliveries?webhookId=${hook.id}&limit=50`)).body
      .data;
    assert.ok(ended.deliveries.every((d: any) => d.status === 'failed' && /webhook removed/.test(d.error)));
  });
});
