/**
 * Webhooks that never lose an event, against the built executable (`taskdown serve`) and a real
 * receiver: a pending delivery survives kill -9 and is delivered after the restart with the same
 * id; redeliver, ping, PATCH and rotation over HTTP; and the address rules at registration with
 * a loopback and a public bind.
 */
import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Webhook as StandardVerifier } from 'standardwebhooks';
import { closedPort, startReceiver, type Receiver } from '../helpers/receiver.js';
import { runCli, startTestServer, waitFor, type TestServer } from '../helpers/server-process.js';
import { tempDir } from '../helpers/temp.js';

/**
 * A built server on folders of its own with one webhook for `task.created` whose receiver is down
 * (nothing listens on its port) and whose long schedule keeps the deliveries pending. The caller
 * stops the server it ends with and removes the folders.
 */
async function serverWithPendingWebhook(name: string) {
  const vault = await tempDir(`taskdown-${name}-vault-`);
  const data = await tempDir(`taskdown-${name}-data-`);
  const port = await closedPort();
  const server = await startTestServer({ vault: vault.dir, dataDir: data.dir });
  const created = await server.request('POST', '/api/webhooks', {
    url: `http://127.0.0.1:${port}/hook`,
    events: ['task.created'],
    retrySchedule: [1, 1, 2, 2, 2, 2, 2, 2, 2, 2],
  });
  assert.equal(created.status, 201);
  return { vault, data, port, server, webhookId: created.body.data.webhook.id as string };
}

describe('a pending delivery survives kill -9 (built server, real receiver)', () => {
  it('is delivered after the restart with the same id, and nothing is lost', async () => {
    const { vault, data, port, ...first } = await serverWithPendingWebhook('k9');
    let server = first.server;
    let receiver: Receiver | undefined;
    try {
      const titles = ['One', 'Two', 'Three', 'Four', 'Five'];
      for (const title of titles) {
        assert.equal((await server.request('POST', '/api/tasks', { title })).status, 201);
      }
      const before = await waitFor(async () => {
        const log = (await server.request('GET', '/api/webhooks/deliveries')).body.data.deliveries;
        return log.length === 5 && log.every((d: any) => d.attempts >= 1) ? log : undefined;
      }, 15_000);
      assert.ok(before.every((d: any) => d.status === 'pending' && /ECONNREFUSED/.test(d.error)));

      assert.equal(await server.stop('SIGKILL'), null);
      server = await startTestServer({ vault: vault.dir, dataDir: data.dir });
      // The receiver comes up on the webhook's port.
      receiver = await startReceiver(() => 200, port);

      const got = await receiver.waitFor(5, 30_000);
      const ids = new Set(before.map((d: any) => d.id));
      assert.deepEqual(new Set(got.map((r) => r.headers['x-service-delivery-id'])), ids);
      assert.deepEqual(got.map((r) => r.body.data.task.title).sort(), [...titles].sort());
      const afterLog = await waitFor(async () => {
        const log = (await server.request('GET', '/api/webhooks/deliveries')).body.data.deliveries;
        return log.every((d: any) => d.status === 'success') ? log : undefined;
      }, 10_000);
      for (const d of afterLog) {
        const old = before.find((b: any) => b.id === d.id);
        assert.ok(d.attempts > old.attempts, 'the attempt count continued, it was not reset');
        const detail = (await server.request('GET', `/api/webhooks/deliveries/${d.id}`)).body.data.delivery;
        assert.equal(detail.attemptLog.length, d.attempts);
        assert.equal(detail.attemptLog.at(-1).outcome, 'success');
      }
      assert.equal(receiver.requests.length, 5, 'each delivered once more, none twice');
    } finally {
      await server.cleanup();
      await receiver?.close();
      await vault.cleanup();
      await data.cleanup();
    }
  });
});

describe('the data dir removed while the server runs (built server, real receiver)', () => {
  it('is written back, and webhooks, pending deliveries and later events survive kill -9', async () => {
    const { vault, data, port, webhookId, ...first } = await serverWithPendingWebhook('rm');
    let server = first.server;
    let receiver: Receiver | undefined;
    try {
      assert.equal((await server.request('POST', '/api/tasks', { title: 'Before' })).status, 201);
      // The whole data dir: the store, its WAL files and the lock.
      rmSync(data.dir, { recursive: true });
      assert.equal((await server.request('POST', '/api/tasks', { title: 'While gone' })).status, 201);
      const store = path.join(data.dir, 'taskdown.sqlite');
      const lock = path.join(data.dir, 'taskdown.lock');
      await waitFor(() => (existsSync(store) && existsSync(lock)) || undefined, 10_000);
      assert.equal((await server.request('POST', '/api/tasks', { title: 'After' })).status, 201);
      assert.match(server.stderr(), /the store file was removed while Taskdown ran/);
      // The lock is back: a second server on the data dir is refused.
      const second = await runCli(['serve', '--vault', vault.dir, '--data-dir', data.dir, '--port', '0']);
      assert.equal(second.code, 1);
      assert.match(second.stderr, /is in use by process/);

      assert.equal(await server.stop('SIGKILL'), null);
      server = await startTestServer({ vault: vault.dir, dataDir: data.dir });
      receiver = await startReceiver(() => 200, port);
      const got = await receiver.waitFor(3, 30_000);
      assert.deepEqual(got.map((r) => r.body.data.task.title).sort(), ['After', 'Before', 'While gone']);
      const hooks = (await server.request('GET', '/api/webhooks')).body.data.webhooks;
      assert.deepEqual(
        hooks.map((h: any) => h.id),
        [webhookId],
      );
    } finally {
      await server.cleanup();
      await receiver?.close();
      await vault.cleanup();
      await data.cleanup();
    }
  });
});

describe('webhook management over HTTP (built server)', () => {
  let server: TestServer;
  let receiver: Receiver;
  before(async () => {
    server = await startTestServer();
    receiver = await startReceiver();
  });
  after(async () => {
    await server.cleanup();
    await receiver.close();
  });

  it('pings, shows every attempt of a delivery, and redelivers it with the same id', async () => {
    const hook = (
      await server.request('POST', '/api/webhooks', { url: receiver.url, events: ['reminder.triggered'] })
    ).body.data.webhook;
    receiver.respond(() => ({ status: 503 }));
    const ping = await server.request('POST', `/api/webhooks/${hook.id}/ping`);
    assert.equal(ping.status, 202);
    assert.equal(ping.body.data.delivery.event, 'webhook.ping');
    const [first] = await receiver.waitFor(1);
    assert.deepEqual(first?.body.data, { webhookId: hook.id });
    assert.equal(first?.headers['x-service-delivery-id'], ping.body.data.delivery.id);
    receiver.respond(() => 200);
    const done = await waitFor(async () => {
      const d = (await server.request('GET', `/api/webhooks/deliveries/${ping.body.data.delivery.id}`)).body
        .data.delivery;
      return d.status === 'success' ? d : undefined;
    }, 10_000);
    assert.deepEqual(
      done.attemptLog.map((a: any) => [a.attempt, a.outcome, a.responseStatus, a.responseBody]),
      [
        [1, 'failed', 503, 'ok'],
        [2, 'success', 200, 'ok'],
      ],
    );
    assert.ok(done.attemptLog.every((a: any) => typeof a.durationMs === 'number' && a.at));
    const again = await server.request('POST', `/api/webhooks/deliveries/${done.id}/redeliver`);
    assert.equal(again.status, 202);
    assert.equal(again.body.data.delivery.id, done.id);
    const [, , third] = await receiver.waitFor(3);
    assert.equal(third?.headers['x-service-delivery-id'], done.id);
    assert.equal(third?.raw.toString(), first?.raw.toString());
  });

  it('patches a webhook, keeping its secret and counters, and re-enabling resets failureCount', async () => {
    const hook = (
      await server.request('POST', '/api/webhooks', {
        url: receiver.url,
        events: ['task.created'],
        active: false,
      })
    ).body.data.webhook;
    const patched = await server.request('PATCH', `/api/webhooks/${hook.id}`, {
      events: ['task.created', 'task.deleted'],
      retrySchedule: [5, 300, 1800, 7200, 18000],
      signing: 'standard',
      active: true,
    });
    assert.equal(patched.status, 200);
    assert.deepEqual(
      [
        patched.body.data.webhook.events,
        patched.body.data.webhook.retrySchedule,
        patched.body.data.webhook.active,
      ],
      [['task.created', 'task.deleted'], [5, 300, 1800, 7200, 18000], true],
    );
    assert.equal('secret' in patched.body.data.webhook, false);
    for (const body of [
      { secret: 'x' },
      { retrySchedule: [0] },
      { signing: 'hmac' },
      { events: [] },
      { url: 'nope' },
    ]) {
      const bad = await server.request('PATCH', `/api/webhooks/${hook.id}`, body);
      assert.equal(bad.status, 400, JSON.stringify(body));
      assert.equal(bad.body.success, false);
    }
    // The secret did not change: a ping verifies with it (Standard Webhooks now).
    receiver.requests.length = 0;
    await server.request('POST', `/api/webhooks/${hook.id}/ping`);
    const [req] = await receiver.waitFor(1);
    const headers = Object.fromEntries(Object.entries(req!.headers).map(([k, v]) => [k, String(v)]));
    assert.doesNotThrow(() => new StandardVerifier(hook.secret).verify(req!.raw.toString(), headers));
  });

  it('rotates the secret: both signatures during the grace period', async () => {
    const hook = (
      await server.request('POST', '/api/webhooks', {
        url: receiver.url,
        events: ['task.created'],
        signing: 'standard',
      })
    ).body.data.webhook;
    const rotated = await server.request('POST', `/api/webhooks/${hook.id}/rotate-secret`, {
      graceSeconds: 600,
    });
    assert.equal(rotated.status, 200);
    assert.match(rotated.body.data.secret, /^whsec_/);
    const expires = Date.parse(rotated.body.data.previousSecretExpiresAt) - Date.now();
    assert.ok(expires > 590_000 && expires <= 600_000);
    receiver.requests.length = 0;
    await server.request('POST', `/api/webhooks/${hook.id}/ping`);
    const [req] = await receiver.waitFor(1);
    const headers = Object.fromEntries(Object.entries(req!.headers).map(([k, v]) => [k, String(v)]));
    for (const secret of [hook.secret, rotated.body.data.secret]) {
      assert.doesNotThrow(() => new StandardVerifier(secret).verify(req!.raw.toString(), headers));
    }
    const bad = await server.request('POST', `/api/webhooks/${hook.id}/rotate-secret`, { graceSeconds: -5 });
    assert.equal(bad.status, 400);
  });

  it('refuses ping and redeliver for an inactive webhook', async () => {
    const hook = (
      await server.request('POST', '/api/webhooks', {
        url: receiver.url,
        events: ['task.created'],
        active: false,
      })
    ).body.data.webhook;
    const res = await server.request('POST', `/api/webhooks/${hook.id}/ping`);
    assert.deepEqual(
      [res.status, res.body],
      [400, { success: false, error: 'Webhook is inactive; enable it first' }],
    );
  });
});

describe('webhook address rules at registration (built server)', () => {
  it("refuses metadata addresses and the server's own address on a loopback bind", async () => {
    const server = await startTestServer();
    try {
      const own = new URL(server.url);
      for (const url of [
        'http://169.254.169.254/latest/meta-data/',
        'http://[fe80::1]/',
        'http://0.0.0.0/',
        'http://224.0.0.1/',
        `${server.url}/api/tasks`,
        `http://localhost:${own.port}/api/tasks`,
        `http://2130706433:${own.port}/api/tasks`,
      ]) {
        const res = await server.request('POST', '/api/webhooks', { url, events: ['task.created'] });
        assert.equal(res.status, 400, url);
        assert.match(res.body.error, /^Webhook URL is not allowed: /, url);
      }
      const fine = await server.request('POST', '/api/webhooks', {
        url: 'http://127.0.0.1:5678/hook',
        events: ['task.created'],
      });
      assert.equal(fine.status, 201);
      assert.equal((await server.request('GET', '/api/webhooks')).body.data.total, 1);
    } finally {
      await server.cleanup();
    }
  });

  it('refuses loopback and private targets on a public bind unless --webhook-allow-private', async () => {
    const token = 'public-bind-token';
    const auth = { authorization: `Bearer ${token}` };
    const strict = await startTestServer({ host: '0.0.0.0', token });
    try {
      for (const url of [
        'http://127.0.0.1:5678/',
        'http://2130706433:5678/',
        'http://[::1]:5678/',
        'http://[::ffff:127.0.0.1]:5678/',
        'http://10.0.0.1/',
        'http://192.168.1.10/',
      ]) {
        const res = await strict.request('POST', '/api/webhooks', { url, events: ['task.created'] }, auth);
        assert.equal(res.status, 400, url);
        assert.match(res.body.error, /--webhook-allow-private/, url);
      }
    } finally {
      await strict.cleanup();
    }
    const open = await startTestServer({ host: '0.0.0.0', token, args: ['--webhook-allow-private'] });
    try {
      const res = await open.request(
        'POST',
        '/api/webhooks',
        { url: 'http://127.0.0.1:5678/', events: ['task.created'] },
        auth,
      );
      assert.equal(res.status, 201);
      const meta = await open.request(
        'POST',
        '/api/webhooks',
        { url: 'http://169.254.169.254/', events: ['task.created'] },
        auth,
      );
      assert.equal(meta.status, 400);
    } finally {
      await open.cleanup();
    }
  });
});
