/**
 * The delivery engine against a real loopback receiver, driven by bus events, with retry timing
 * on a ManualClock and the store on disk.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { EVENT_NAMES } from '../../../src/core/events/catalogue.js';
import { isDomainError } from '../../../src/core/errors.js';
import { signTaskdown } from '../../../src/core/webhooks/signer.js';
import { createHarness, pause, task, type Harness } from './harness.js';

describe('webhook delivery engine', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness({
      files: {
        'hooks/slack.json': JSON.stringify({
          'task.created': { text: 'New task: ${data.task.title}', project: '${data.task.projects.1}' },
          default: { text: '${event} on ${vault.name}', due: '${data.task.due}' },
        }),
        'hooks/only-updated.json': JSON.stringify({ 'task.updated': { a: 1 } }),
        'hooks/broken.json': '{ not json',
        'hooks/old.js': 'module.exports = (p) => p',
      },
    });
  });
  afterEach(() => h.close());

  const delivery = (i = 0) => h.deliveries()[i];

  it('POSTs the signed envelope with the X-Service headers and logs the delivery', async () => {
    const hook = await h.service.create({ url: h.receiver.url, events: ['task.created'] });
    h.emit('task.created', { task: task() });
    const [req] = await h.receiver.waitFor(1);
    assert.ok(req);
    assert.equal(req.method, 'POST');
    assert.equal(req.headers['content-type'], 'application/json');
    assert.equal(req.headers['x-service-event'], 'task.created');
    assert.equal(req.headers['x-service-signature'], signTaskdown(hook.secret, req.raw.toString('utf8')));
    assert.match(String(req.headers['x-service-delivery-id']), /^del_\d+_[0-9a-z]+$/);
    // Compact JSON, and the exact envelope of the interface.
    assert.equal(req.raw.toString('utf8'), JSON.stringify(req.body));
    assert.deepEqual(req.body, {
      event: 'task.created',
      timestamp: '2026-01-15T09:00:00.000Z',
      vault: { name: 'vault', path: h.vault },
      data: { task: task() },
    });
    await h.until(() => delivery()?.status === 'success' && h.service.get(hook.id).successCount === 1);
    assert.deepEqual(delivery(), {
      id: req.headers['x-service-delivery-id'],
      webhookId: hook.id,
      event: 'task.created',
      payload: req.body,
      status: 'success',
      attempts: 1,
      lastAttempt: '2026-01-15T09:00:00.000Z',
      responseStatus: 200,
      createdAt: '2026-01-15T09:00:00.000Z',
    });
    const listed = h.service.get(hook.id);
    assert.deepEqual(
      [listed.successCount, listed.failureCount, listed.lastTriggered],
      [1, 0, '2026-01-15T09:00:00.000Z'],
    );
    const detail = h.service.delivery(delivery()!.id);
    assert.equal(detail.attemptLog.length, 1);
    assert.deepEqual(
      { ...detail.attemptLog[0], durationMs: 0 },
      {
        attempt: 1,
        at: '2026-01-15T09:00:00.000Z',
        durationMs: 0,
        outcome: 'success',
        responseStatus: 200,
        responseBody: 'ok',
      },
    );
  });

  it('sends non-ASCII text as UTF-8 with a matching length and signature', async () => {
    const hook = await h.service.create({ url: h.receiver.url, events: ['task.created'] });
    h.emit('task.created', { task: task('Café ☕ 日本') });
    const [req] = await h.receiver.waitFor(1);
    assert.ok(req);
    assert.equal(req.headers['content-length'], String(req.raw.length));
    assert.equal(req.headers['x-service-signature'], signTaskdown(hook.secret, req.raw.toString('utf8')));
    assert.equal(req.body.data.task.title, 'Café ☕ 日本');
  });

  it('sends only Content-Type when corsHeaders is false', async () => {
    await h.service.create({ url: h.receiver.url, events: ['task.deleted'], corsHeaders: false });
    h.emit('task.deleted', { task: task() });
    const [req] = await h.receiver.waitFor(1);
    assert.equal(req?.headers['content-type'], 'application/json');
    assert.deepEqual(
      Object.keys(req?.headers ?? {}).filter((k) => k.startsWith('x-') || k.startsWith('webhook-')),
      [],
    );
  });

  it('delivers nothing to inactive or unsubscribed webhooks', async () => {
    await h.service.create({ url: h.receiver.url, events: ['task.created'], active: false });
    await h.service.create({ url: h.receiver.url, events: ['task.updated'] });
    h.emit('task.created', { task: task() });
    await pause();
    assert.equal(h.receiver.requests.length, 0);
    assert.deepEqual(h.deliveries(), []);
  });

  it('delivers every one of the 14 events by name, with no per-event code', async () => {
    await h.service.create({ url: h.receiver.url, events: [...EVENT_NAMES] });
    for (const name of EVENT_NAMES) h.events.emit(name, { task: task(), marker: name } as never);
    const got = await h.receiver.waitFor(EVENT_NAMES.length);
    assert.deepEqual(got.map((r) => r.headers['x-service-event']).sort(), [...EVENT_NAMES].sort());
    for (const r of got) assert.equal(r.body.data.marker, r.body.event);
  });

  it('sends the payload as it was when the event happened', async () => {
    await h.service.create({ url: h.receiver.url, events: ['task.updated'] });
    const t = task();
    h.emit('task.updated', { task: t, previous: task() });
    t.title = 'mutated after emit';
    const [req] = await h.receiver.waitFor(1);
    assert.equal(req?.body.data.task.title, 'Buy milk');
  });

  it('has the pending delivery in the store when emit returns', async () => {
    h.receiver.respond(() => ({ status: 200, delayMs: 1000 }));
    await h.service.create({ url: h.receiver.url, events: ['task.created'] });
    h.emit('task.created', { task: task() });
    assert.deepEqual(
      h.deliveries().map((d) => [d.status, d.attempts]),
      [['pending', 0]],
    );
  });

  it('sends nothing for an event whose append rolled back, and the next event as it is', async () => {
    await h.service.create({ url: h.receiver.url, events: ['task.created'] });
    // A first delivery, so that the webhook's lane has read the store and takes new ones as made.
    h.emit('task.created', { task: task('First') });
    await h.until(() => delivery()?.status === 'success');
    // A writer after the engine's fails once: the append, with the delivery made for it, is undone.
    let fail = true;
    const off = h.journal.onAppend(() => {
      if (fail) throw new Error('disk full');
    });
    h.emit('task.created', { task: task('Lost') });
    assert.equal(h.deliveries().length, 1);
    fail = false;
    h.emit('task.created', { task: task('Kept') });
    await h.receiver.waitFor(2);
    await h.until(() => h.deliveries().every((d) => d.status === 'success'));
    await pause(50);
    off();
    const title = (payload: unknown) => (payload as { data: { task: { title: string } } }).data.task.title;
    assert.deepEqual(
      h.receiver.requests.map((req) => title(req.body)),
      ['First', 'Kept'],
    );
    assert.deepEqual(
      h.deliveries().map((d) => [d.status, title(d.payload)]),
      [
        ['success', 'First'],
        ['success', 'Kept'],
      ],
    );
  });

  it('retries a flaky receiver after 1 s and 2 s with the same delivery id; failed attempts are not failures', async () => {
    h.receiver.respond((_r, i) => (i < 2 ? 500 : 200));
    const hook = await h.service.create({ url: h.receiver.url, events: ['task.created'] });
    h.emit('task.created', { task: task() });
    await h.receiver.waitFor(1);
    await h.until(() => delivery()?.attempts === 1);
    assert.equal(delivery()?.status, 'pending');
    assert.equal(delivery()?.responseStatus, 500);
    assert.equal(delivery()?.error, 'HTTP 500');
    assert.equal(delivery()?.nextAttempt, '2026-01-15T09:00:01.000Z');
    await h.clock.advance(999);
    await pause();
    assert.equal(h.receiver.requests.length, 1, 'no retry before 1 s');
    await h.clock.advance(1);
    await h.receiver.waitFor(2);
    await h.until(() => delivery()?.attempts === 2);
    await h.clock.advance(1999);
    await pause();
    assert.equal(h.receiver.requests.length, 2, 'no retry before 2 s');
    await h.clock.advance(1);
    await h.receiver.waitFor(3);
    await h.until(() => delivery()?.status === 'success' && h.service.get(hook.id).successCount === 1);
    const ids = h.receiver.requests.map((r) => r.headers['x-service-delivery-id']);
    assert.equal(new Set(ids).size, 1);
    assert.equal(ids[0], delivery()?.id);
    assert.deepEqual(
      [delivery()?.attempts, delivery()?.responseStatus, 'error' in (delivery() ?? {})],
      [3, 200, false],
    );
    const counted = h.service.get(hook.id);
    assert.deepEqual([counted.failureCount, counted.successCount], [0, 1]);
    assert.deepEqual(
      h.service
        .delivery(delivery()!.id)
        .attemptLog.map((a) => [a.attempt, a.outcome, a.responseStatus, a.at]),
      [
        [1, 'failed', 500, '2026-01-15T09:00:00.000Z'],
        [2, 'failed', 500, '2026-01-15T09:00:01.000Z'],
        [3, 'success', 200, '2026-01-15T09:00:03.000Z'],
      ],
    );
    await h.clock.advance(10_000);
    await pause();
    assert.equal(h.receiver.requests.length, 3);
  });

  it('gives up after 4 attempts (1 s, 2 s, 4 s apart): one finally failed delivery', async () => {
    h.receiver.respond(() => 503);
    const hook = await h.service.create({ url: h.receiver.url, events: ['task.created'] });
    h.emit('task.created', { task: task() });
    const sentAt: number[] = [];
    for (const [count, wait] of [
      [1, 1000],
      [2, 2000],
      [3, 4000],
      [4, 0],
    ] as const) {
      await h.receiver.waitFor(count);
      sentAt.push(h.clock.now());
      await h.until(() => delivery()?.attempts === count);
      if (wait) await h.clock.advance(wait);
    }
    assert.deepEqual(
      sentAt.map((t) => t - (sentAt[0] ?? 0)),
      [0, 1000, 3000, 7000],
    );
    await h.until(() => delivery()?.status === 'failed');
    assert.equal(delivery()?.attempts, 4);
    await h.clock.advance(60_000);
    await pause();
    assert.equal(h.receiver.requests.length, 4);
    assert.deepEqual([h.service.get(hook.id).failureCount, h.service.get(hook.id).active], [1, true]);
  });

  it('loses nothing when the receiver is down for a second during a burst of 15 events', async () => {
    // The reference counted failed attempts: 15 failures disabled the webhook and dropped them all.
    let down = true;
    h.receiver.respond(() => (down ? 503 : 200));
    const hook = await h.service.create({ url: h.receiver.url, events: ['task.created'] });
    for (let i = 0; i < 15; i++) h.emit('task.created', { task: task(`T${i}`) });
    await h.receiver.waitFor(15);
    await h.until(() => h.deliveries().every((d) => d.attempts === 1));
    down = false;
    await h.clock.advance(1000);
    // Counters are mirrored once the outcomes are committed, a moment after the rows show them.
    await h.until(() => h.service.get(hook.id).successCount === 15);
    assert.ok(h.deliveries().every((d) => d.status === 'success'));
    const after = h.service.get(hook.id);
    assert.deepEqual([after.active, after.failureCount, after.successCount], [true, 0, 15]);
  });

  it('counts a refused connection as a failed attempt', async () => {
    await h.service.create({ url: 'http://127.0.0.1:9/closed', events: ['task.created'] });
    h.emit('task.created', { task: task() });
    await h.until(() => delivery()?.error !== undefined);
    assert.match(delivery()?.error ?? '', /ECONNREFUSED/);
    assert.equal(delivery()?.responseStatus, undefined);
  });

  it('keeps only the first 2 KB of an answer, in the attempt, never in the error', async () => {
    const long = 'internal detail '.repeat(400); // 6.4 KB
    const receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(500, { 'content-type': 'text/plain' }).end(long));
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`;
      await h.service.create({ url, events: ['task.created'], retrySchedule: [] });
      h.emit('task.created', { task: task() });
      await h.until(() => delivery()?.status === 'failed');
      assert.equal(delivery()?.error, 'HTTP 500');
      const [attempt] = h.service.delivery(delivery()!.id).attemptLog;
      assert.equal(attempt?.responseBody, long.slice(0, 2048));
    } finally {
      receiver.closeAllConnections();
      receiver.close();
    }
  });

  it('refuses a connection when the name now resolves to a forbidden address (DNS rebinding), saying why', async () => {
    await h.close();
    let lookups = 0;
    const port = new URL(h.receiver.url).port;
    // Registration sees a public address; every connection attempt sees loopback.
    h = await createHarness({
      guard: { listenHost: '0.0.0.0' },
      lookup: async () => (lookups++ === 0 ? ['93.184.216.34'] : ['127.0.0.1']),
    });
    await h.service.create({
      url: `http://rebind.test:${port}/hook`,
      events: ['task.created'],
      retrySchedule: [],
    });
    h.emit('task.created', { task: task() });
    await h.until(() => delivery()?.status === 'failed');
    assert.match(
      delivery()?.error ?? '',
      /^Refused by the webhook address rules: rebind\.test \(127\.0\.0\.1\) is a loopback address/,
    );
    assert.equal(h.receiver.requests.length, 0, 'nothing reached the loopback receiver');
    const [attempt] = h.service.delivery(delivery()!.id).attemptLog;
    assert.match(attempt?.error ?? '', /rebind\.test/);
  });

  it('times an attempt out on the clock', async () => {
    await h.close();
    h = await createHarness({ timeoutMs: 5000 });
    h.receiver.respond(() => ({ status: 200, delayMs: 20_000 }));
    await h.service.create({ url: h.receiver.url, events: ['task.created'] });
    h.emit('task.created', { task: task() });
    await h.receiver.waitFor(1);
    await h.clock.advance(4999);
    await pause(30);
    assert.equal(delivery()?.attempts, 0, 'not before the timeout');
    await h.clock.advance(501);
    await h.until(() => delivery()?.attempts === 1);
    assert.equal(delivery()?.error, 'Request timed out after 5000 ms');
    assert.equal(delivery()?.status, 'pending');
  });

  it('follows a per-webhook retry schedule, with jitter on long waits', async () => {
    await h.close();
    h = await createHarness({ random: () => 0 });
    h.receiver.respond(() => 500);
    await h.service.create({ url: h.receiver.url, events: ['task.created'], retrySchedule: [5, 300] });
    h.emit('task.created', { task: task() });
    await h.until(() => delivery()?.attempts === 1);
    await h.clock.advance(4999);
    await pause();
    assert.equal(h.receiver.requests.length, 1, 'a 5 s wait is exact');
    await h.clock.advance(1);
    await h.until(() => delivery()?.attempts === 2);
    // 300 s less the largest jitter (10 %): 270 s.
    await h.clock.advance(269_999);
    await pause();
    assert.equal(h.receiver.requests.length, 2);
    await h.clock.advance(1);
    await h.until(() => delivery()?.status === 'failed');
    assert.equal(h.receiver.requests.length, 3);
  });

  it('auto-disables once more than 10 deliveries finally failed and drops its pending ones', async () => {
    h.receiver.respond(() => 500);
    const hook = await h.service.create({ url: h.receiver.url, events: ['task.created'], retrySchedule: [] });
    const other = await h.service.create({
      url: h.receiver.url,
      events: ['task.deleted'],
      retrySchedule: [60],
    });
    for (let i = 0; i < 11; i++) h.emit('task.created', { task: task(`T${i}`) });
    h.emit('task.deleted', { task: task() });
    await h.receiver.waitFor(12);
    await h.until(() => h.service.get(hook.id).failureCount === 11);
    assert.equal(h.service.get(hook.id).active, false);
    assert.equal(h.service.get(other.id).active, true, 'another webhook is not affected');
    h.emit('task.created', { task: task('after') });
    await pause();
    assert.equal(h.receiver.requests.length, 12, 'a disabled webhook receives nothing');
    // Re-enabling resets the count and delivers again.
    h.receiver.respond(() => 200);
    h.service.setActive(hook.id, true);
    h.emit('task.created', { task: task('again') });
    await h.receiver.waitFor(13);
    await h.until(() => h.service.get(hook.id).successCount === 1);
    assert.equal(h.service.get(hook.id).failureCount, 0);
  });

  it('disables at once on 410 Gone and ends the pending deliveries', async () => {
    h.receiver.respond((_r, i) => (i === 0 ? 500 : 410));
    const hook = await h.service.create({
      url: h.receiver.url,
      events: ['task.created'],
      retrySchedule: [1, 1],
    });
    h.emit('task.created', { task: task('first') });
    await h.until(() => delivery()?.attempts === 1);
    h.emit('task.created', { task: task('second') });
    await h.until(() => !h.service.get(hook.id).active);
    await h.until(() => h.deliveries().every((d) => d.status === 'failed'));
    const [first, second] = h.deliveries();
    assert.match(second?.error ?? '', /^HTTP 410 \(Gone/);
    assert.match(first?.error ?? '', /not retried: webhook disabled/);
    await h.clock.advance(10_000);
    await pause();
    assert.equal(h.receiver.requests.length, 2);
  });

  it('ends pending retries when the webhook is removed, and sends nothing after', async () => {
    h.receiver.respond(() => 500);
    const hook = await h.service.create({ url: h.receiver.url, events: ['task.created'] });
    h.emit('task.created', { task: task() });
    await h.until(() => delivery()?.attempts === 1);
    h.service.remove(hook.id);
    assert.equal(delivery()?.status, 'failed');
    assert.equal(delivery()?.error, 'HTTP 500 (not retried: webhook removed)');
    await h.clock.advance(10_000);
    await pause();
    assert.equal(h.receiver.requests.length, 1);
  });

  it('delivers nothing while the HTTP API is switched off, and ends waiting retries', async () => {
    h.receiver.respond(() => 500);
    await h.service.create({ url: h.receiver.url, events: ['task.created', 'task.deleted'] });
    h.emit('task.created', { task: task() });
    await h.until(() => delivery()?.attempts === 1);
    await h.settings.update((s) => {
      s.apiEnabled = false;
    });
    assert.equal(delivery()?.status, 'failed');
    assert.match(delivery()?.error ?? '', /HTTP API is disabled/);
    h.emit('task.deleted', { task: task() });
    await h.clock.advance(10_000);
    await pause();
    assert.equal(h.receiver.requests.length, 1);
    assert.equal(h.deliveries().length, 1);
  });

  it('never makes the emitter wait, even for a receiver that hangs', async () => {
    h.receiver.respond(() => ({ status: 200, delayMs: 30_000 }));
    await h.service.create({ url: h.receiver.url, events: ['task.created'] });
    const started = process.hrtime.bigint();
    for (let i = 0; i < 50; i++) h.emit('task.created', { task: task(`T${i}`) });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    assert.ok(ms < 1000, `50 emits took ${ms} ms`);
    await h.receiver.waitFor(16);
    await pause();
    assert.equal(h.receiver.requests.length, 16, 'at most 16 attempts of one webhook at once');
    assert.ok(h.deliveries().every((d) => d.status === 'pending'));
  });

  it('does not let a receiver that never answers delay another webhook', async () => {
    const sockets = new Set<Socket>();
    const blackHole: Server = createServer(() => {});
    blackHole.on('connection', (s) => sockets.add(s));
    await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
    try {
      const port = (blackHole.address() as AddressInfo).port;
      await h.service.create({ url: `http://127.0.0.1:${port}/`, events: ['task.created'] });
      await h.service.create({ url: h.receiver.url, events: ['task.created'] });
      const started = Date.now();
      for (let i = 0; i < 100; i++) h.emit('task.created', { task: task(`T${i}`) });
      await h.receiver.waitFor(100, 5000);
      assert.ok(Date.now() - started < 5000);
    } finally {
      for (const s of sockets) s.destroy();
      blackHole.close();
    }
  });

  it('pages the log: the last 100 oldest first, before a delivery, by webhook and status', async () => {
    const a = await h.service.create({ url: h.receiver.url, events: ['task.created'] });
    const b = await h.service.create({
      url: 'http://127.0.0.1:9/closed',
      events: ['task.created'],
      retrySchedule: [],
    });
    for (let i = 0; i < 105; i++) h.emit('task.created', { task: task(`T${i}`) });
    await h.receiver.waitFor(105);
    await h.until(() => h.deliveries().every((d) => d.status !== 'pending'));
    const page = h.service.deliveries({ webhookId: a.id });
    assert.equal(page.deliveries.length, 100);
    assert.equal(page.hasMore, true);
    const titles = page.deliveries.map((d) => (d.payload as any).data.task.title);
    assert.deepEqual([titles[0], titles[99]], ['T5', 'T104']);
    const older = h.service.deliveries({ webhookId: a.id, before: page.deliveries[0]!.id });
    assert.deepEqual(
      older.deliveries.map((d) => (d.payload as any).data.task.title),
      ['T0', 'T1', 'T2', 'T3', 'T4'],
    );
    assert.equal(older.hasMore, false);
    const failed = h.service.deliveries({ status: 'failed', limit: 3 });
    assert.deepEqual(
      failed.deliveries.map((d) => [d.webhookId, (d.payload as any).data.task.title]),
      [
        [b.id, 'T102'],
        [b.id, 'T103'],
        [b.id, 'T104'],
      ],
    );
    assert.throws(
      () => h.service.deliveries({ before: 'del_nope' }),
      (err) => isDomainError(err) && err.code === 'INVALID',
    );
  });

  describe('redeliver and ping', () => {
    it('sends a delivery again with the same id and payload, counted again', async () => {
      const hook = await h.service.create({ url: h.receiver.url, events: ['task.created'] });
      h.emit('task.created', { task: task() });
      await h.until(() => delivery()?.status === 'success');
      const again = h.service.redeliver(delivery()!.id);
      assert.equal(again.id, delivery()!.id);
      const [first, second] = await h.receiver.waitFor(2);
      assert.equal(second?.headers['x-service-delivery-id'], first?.headers['x-service-delivery-id']);
      assert.equal(second?.raw.toString(), first?.raw.toString());
      await h.until(() => delivery()?.attempts === 2 && h.service.get(hook.id).successCount === 2);
      assert.equal(delivery()?.status, 'success');
    });

    it('sends a delivery again that is redelivered while its outcome waits for the commit', async () => {
      // The outcome of an attempt is written in the turn's transaction and committed a moment
      // later; a redelivery in between (an API call seeing the finished delivery) must not be lost.
      const hook = await h.service.create({ url: h.receiver.url, events: ['task.created'] });
      const writeSoon = h.store.writeSoon.bind(h.store);
      let redelivered = false;
      h.store.writeSoon = (write) => {
        const result = writeSoon(write);
        const first = delivery();
        if (!redelivered && first?.status === 'success') {
          redelivered = true;
          h.service.redeliver(first.id);
        }
        return result;
      };
      h.emit('task.created', { task: task() });
      await h.receiver.waitFor(2);
      await h.until(() => delivery()?.attempts === 2 && h.service.get(hook.id).successCount === 2);
      assert.ok(redelivered);
      assert.equal(delivery()?.status, 'success');
    });

    it('gives a failed delivery a new round of retries', async () => {
      h.receiver.respond(() => 500);
      await h.service.create({ url: h.receiver.url, events: ['task.created'], retrySchedule: [1] });
      h.emit('task.created', { task: task() });
      await h.until(() => delivery()?.attempts === 1);
      await h.clock.advance(1000);
      await h.until(() => delivery()?.status === 'failed');
      h.receiver.respond((_r, i) => (i < 3 ? 500 : 200));
      h.service.redeliver(delivery()!.id);
      await h.until(() => delivery()?.attempts === 3);
      assert.equal(delivery()?.status, 'pending');
      await h.clock.advance(1000);
      await h.until(() => delivery()?.status === 'success');
      assert.equal(delivery()?.attempts, 4);
    });

    it('refuses unknown deliveries, and webhooks that are gone or inactive', async () => {
      const hook = await h.service.create({ url: h.receiver.url, events: ['task.created'] });
      h.emit('task.created', { task: task() });
      await h.until(() => delivery()?.status === 'success');
      const code = (fn: () => unknown) => {
        try {
          fn();
        } catch (err) {
          return isDomainError(err) ? `${err.code}: ${err.message}` : String(err);
        }
        return 'ok';
      };
      assert.equal(
        code(() => h.service.redeliver('del_nope')),
        'NOT_FOUND: Delivery not found',
      );
      assert.equal(
        code(() => h.service.ping('wh_nope')),
        'NOT_FOUND: Webhook not found',
      );
      h.service.setActive(hook.id, false);
      assert.equal(
        code(() => h.service.redeliver(delivery()!.id)),
        'CONFLICT: Webhook is inactive; enable it first',
      );
      assert.equal(
        code(() => h.service.ping(hook.id)),
        'CONFLICT: Webhook is inactive; enable it first',
      );
      h.service.remove(hook.id);
      assert.equal(
        code(() => h.service.redeliver(delivery()!.id)),
        'NOT_FOUND: Webhook not found',
      );
    });

    it('pings one webhook whatever its events, signed, and journals the ping', async () => {
      const hook = await h.service.create({ url: h.receiver.url, events: ['reminder.triggered'] });
      const record = h.service.ping(hook.id);
      assert.equal(record.event, 'webhook.ping');
      assert.equal(record.status, 'pending');
      const [req] = await h.receiver.waitFor(1);
      assert.deepEqual(req?.body, {
        event: 'webhook.ping',
        timestamp: '2026-01-15T09:00:00.000Z',
        vault: { name: 'vault', path: h.vault },
        data: { webhookId: hook.id },
      });
      assert.equal(req?.headers['x-service-delivery-id'], record.id);
      assert.equal(req?.headers['x-service-signature'], signTaskdown(hook.secret, req!.raw.toString()));
      assert.deepEqual(
        h.journal.eventsSince(0).map((e) => e.name),
        ['webhook.ping'],
      );
    });
  });

  describe('across a restart', () => {
    it('resumes a pending delivery with the same id, attempts and schedule', async () => {
      h.receiver.respond(() => 500);
      await h.service.create({ url: h.receiver.url, events: ['task.created'], retrySchedule: [5, 20] });
      h.emit('task.created', { task: task() });
      await h.until(() => delivery()?.attempts === 1);
      const { id, nextAttempt } = delivery()!;
      assert.equal(nextAttempt, '2026-01-15T09:00:05.000Z');
      await h.clock.advance(2000);
      await h.restart();
      h.receiver.respond(() => 200);
      assert.deepEqual(
        h.deliveries().map((d) => [d.id, d.status, d.attempts, d.nextAttempt]),
        [[id, 'pending', 1, nextAttempt]],
      );
      await h.clock.advance(2999);
      await pause();
      assert.equal(h.receiver.requests.length, 1, 'the schedule holds across the restart');
      await h.clock.advance(1);
      const [, again] = await h.receiver.waitFor(2);
      assert.equal(again?.headers['x-service-delivery-id'], id);
      await h.until(() => delivery()?.status === 'success');
      assert.equal(delivery()?.attempts, 2);
    });

    it('sends deliveries whose time passed while the server was down at once', async () => {
      h.receiver.respond(() => 500);
      await h.service.create({ url: h.receiver.url, events: ['task.created'], retrySchedule: [10] });
      h.emit('task.created', { task: task() });
      await h.until(() => delivery()?.attempts === 1);
      await h.service.stop();
      await h.clock.advance(60_000);
      h.receiver.respond(() => 200);
      await h.restart();
      await h.receiver.waitFor(2);
      await h.until(() => delivery()?.status === 'success');
    });
  });

  describe('transforms', () => {
    const send = async (transformFile: string, event: 'task.created' | 'task.deleted' = 'task.created') => {
      const hook = await h.service.create({ url: h.receiver.url, events: [event], transformFile });
      h.emit(event, { task: task() });
      const [req] = await h.receiver.waitFor(1);
      assert.ok(req);
      assert.equal(
        req.headers['x-service-signature'],
        signTaskdown(hook.secret, req.raw.toString('utf8')),
        'signature covers the body sent',
      );
      await h.until(() => delivery()?.status === 'success');
      return { req, record: delivery() };
    };

    it('uses the event key, with array indices, and logs the transformed payload', async () => {
      const { req, record } = await send('hooks/slack.json');
      assert.equal(req.raw.toString(), '{"text":"New task: Buy milk","project":"[[House]]"}');
      assert.deepEqual(record?.payload, req.body);
      assert.equal(record?.transformError, undefined);
    });

    it('falls back to default and leaves a missing variable literal', async () => {
      const { req } = await send('hooks/slack.json', 'task.deleted');
      assert.deepEqual(req.body, { text: 'task.deleted on vault', due: '${data.task.due}' });
    });

    it('sends the transformed body again on a retry, even after the template changed', async () => {
      h.receiver.respond((_r, i) => (i === 0 ? 500 : 200));
      await h.service.create({
        url: h.receiver.url,
        events: ['task.created'],
        transformFile: 'hooks/slack.json',
      });
      h.emit('task.created', { task: task() });
      await h.until(() => delivery()?.attempts === 1);
      await writeFile(path.join(h.vault, 'hooks/slack.json'), JSON.stringify({ default: { changed: true } }));
      await h.restart();
      await h.clock.advance(1000);
      const [first, second] = await h.receiver.waitFor(2);
      assert.equal(first?.raw.toString(), '{"text":"New task: Buy milk","project":"[[House]]"}');
      assert.equal(second?.raw.toString(), first?.raw.toString());
    });

    for (const [file, why] of [
      ['hooks/missing.json', /Failed to read template file/],
      ['hooks/broken.json', /Invalid JSON/],
      ['hooks/only-updated.json', /No template found for event 'task.created'/],
      ['hooks/old.js', /JavaScript webhook transforms are no longer supported/],
      ['../outside.json', /Invalid transform file/],
    ] as const) {
      it(`sends the original payload and records transformError for ${file}`, async () => {
        const { req, record } = await send(file);
        assert.equal(req.body.event, 'task.created');
        assert.deepEqual(req.body.data, { task: task() });
        assert.match(record?.transformError ?? '', why);
      });
    }
  });
});
