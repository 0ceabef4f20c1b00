/**
 * The delivery engine against a real loopback receiver, driven by bus events, with retry timing
 * on a ManualClock.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { EVENT_NAMES } from '../../../src/core/events/catalogue.js';
import { sign } from '../../../src/core/webhooks/signer.js';
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

  const delivery = (i = 0) => h.registry.deliveries()[i];

  it('POSTs the signed envelope with the X-Service headers', async () => {
    const hook = await h.registry.create({ url: h.receiver.url, events: ['task.created'] });
    h.emit('task.created', { task: task() });
    const [req] = await h.receiver.waitFor(1);
    assert.ok(req);
    assert.equal(req.method, 'POST');
    assert.equal(req.headers['content-type'], 'application/json');
    assert.equal(req.headers['x-service-event'], 'task.created');
    assert.equal(req.headers['x-service-signature'], sign(hook.secret, req.raw));
    assert.match(String(req.headers['x-service-delivery-id']), /^del_\d+_[0-9a-z]+$/);
    // Compact JSON, and the exact envelope of the interface.
    assert.equal(req.raw.toString('utf8'), JSON.stringify(req.body));
    assert.deepEqual(req.body, {
      event: 'task.created',
      timestamp: '2026-01-15T09:00:00.000Z',
      vault: { name: 'vault', path: h.vault },
      data: { task: task() },
    });
    await h.until(() => delivery()?.status === 'success');
    const record = delivery();
    assert.deepEqual(
      { ...record, lastAttempt: undefined },
      {
        id: req.headers['x-service-delivery-id'],
        webhookId: hook.id,
        event: 'task.created',
        payload: req.body,
        status: 'success',
        attempts: 1,
        lastAttempt: undefined,
        responseStatus: 200,
        createdAt: '2026-01-15T09:00:00.000Z',
      },
    );
    const listed = h.registry.get(hook.id);
    assert.deepEqual(
      [listed.successCount, listed.failureCount, listed.lastTriggered],
      [1, 0, '2026-01-15T09:00:00.000Z'],
    );
  });

  it('sends non-ASCII text as UTF-8 with a matching length and signature', async () => {
    const hook = await h.registry.create({ url: h.receiver.url, events: ['task.created'] });
    h.emit('task.created', { task: task('Café ☕ 日本') });
    const [req] = await h.receiver.waitFor(1);
    assert.ok(req);
    assert.equal(req.headers['content-length'], String(req.raw.length));
    assert.equal(req.headers['x-service-signature'], sign(hook.secret, req.raw));
    assert.equal(req.body.data.task.title, 'Café ☕ 日本');
  });

  it('sends only Content-Type when corsHeaders is false', async () => {
    await h.registry.create({ url: h.receiver.url, events: ['task.deleted'], corsHeaders: false });
    h.emit('task.deleted', { task: task() });
    const [req] = await h.receiver.waitFor(1);
    assert.equal(req?.headers['content-type'], 'application/json');
    assert.deepEqual(
      Object.keys(req?.headers ?? {}).filter((k) => k.startsWith('x-')),
      [],
    );
  });

  it('delivers nothing to inactive or unsubscribed webhooks', async () => {
    await h.registry.create({ url: h.receiver.url, events: ['task.created'], active: false });
    await h.registry.create({ url: h.receiver.url, events: ['task.updated'] });
    h.emit('task.created', { task: task() });
    await pause();
    assert.equal(h.receiver.requests.length, 0);
    assert.deepEqual(h.registry.deliveries(), []);
  });

  it('delivers every one of the 14 events by name, with no per-event code', async () => {
    await h.registry.create({ url: h.receiver.url, events: [...EVENT_NAMES] });
    for (const name of EVENT_NAMES) h.events.emit(name, { task: task(), marker: name } as never);
    const got = await h.receiver.waitFor(EVENT_NAMES.length);
    assert.deepEqual(got.map((r) => r.headers['x-service-event']).sort(), [...EVENT_NAMES].sort());
    for (const r of got) assert.equal(r.body.data.marker, r.body.event);
  });

  it('sends the payload as it was when the event happened', async () => {
    await h.registry.create({ url: h.receiver.url, events: ['task.updated'] });
    const t = task();
    h.emit('task.updated', { task: t, previous: task() });
    t.title = 'mutated after emit';
    const [req] = await h.receiver.waitFor(1);
    assert.equal(req?.body.data.task.title, 'Buy milk');
  });

  it('retries a flaky receiver after 1 s and 2 s with the same delivery id', async () => {
    h.receiver.respond((_r, i) => (i < 2 ? 500 : 200));
    const hook = await h.registry.create({ url: h.receiver.url, events: ['task.created'] });
    h.emit('task.created', { task: task() });
    await h.receiver.waitFor(1);
    await h.until(() => delivery()?.attempts === 1 && delivery()?.error !== undefined);
    assert.equal(delivery()?.status, 'pending');
    assert.equal(delivery()?.responseStatus, 500);
    assert.equal(delivery()?.error, 'HTTP 500: ok');
    await h.clock.advance(999);
    await pause();
    assert.equal(h.receiver.requests.length, 1, 'no retry before 1 s');
    await h.clock.advance(1);
    await h.receiver.waitFor(2);
    await h.until(() => delivery()?.attempts === 2 && h.registry.get(hook.id).failureCount === 2);
    await h.clock.advance(1999);
    await pause();
    assert.equal(h.receiver.requests.length, 2, 'no retry before 2 s');
    await h.clock.advance(1);
    await h.receiver.waitFor(3);
    await h.until(() => delivery()?.status === 'success');
    const ids = h.receiver.requests.map((r) => r.headers['x-service-delivery-id']);
    assert.equal(new Set(ids).size, 1);
    assert.equal(ids[0], delivery()?.id);
    assert.deepEqual(
      [delivery()?.attempts, delivery()?.responseStatus, 'error' in (delivery() ?? {})],
      [3, 200, false],
    );
    const counted = h.registry.get(hook.id);
    assert.deepEqual([counted.failureCount, counted.successCount], [2, 1]);
    await h.clock.advance(10_000);
    await pause();
    assert.equal(h.receiver.requests.length, 3);
  });

  it('gives up after 4 attempts (1 s, 2 s, 4 s apart) and ends failed', async () => {
    h.receiver.respond(() => 503);
    const hook = await h.registry.create({ url: h.receiver.url, events: ['task.created'] });
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
      await h.until(() => delivery()?.attempts === count && h.registry.get(hook.id).failureCount === count);
      if (wait) await h.clock.advance(wait);
    }
    assert.deepEqual(
      sentAt.map((t) => t - (sentAt[0] ?? 0)),
      [0, 1000, 3000, 7000],
    );
    assert.equal(delivery()?.status, 'failed');
    assert.equal(delivery()?.attempts, 4);
    await h.clock.advance(60_000);
    await pause();
    assert.equal(h.receiver.requests.length, 4);
    assert.deepEqual([h.registry.get(hook.id).failureCount, h.registry.get(hook.id).active], [4, true]);
  });

  it('counts a refused connection as a failed attempt', async () => {
    await h.registry.create({ url: 'http://127.0.0.1:9/closed', events: ['task.created'] });
    h.emit('task.created', { task: task() });
    await h.until(() => delivery()?.error !== undefined);
    assert.match(delivery()?.error ?? '', /ECONNREFUSED/);
    assert.equal(delivery()?.responseStatus, undefined);
  });

  it('records a URL that cannot be parsed (hand-edited settings) as a failed attempt', async () => {
    const hook = await h.registry.create({ url: h.receiver.url, events: ['task.created'] });
    await h.settings.update((s) => {
      (s.webhooks[0] as { url: string }).url = 'not a url';
    });
    h.emit('task.created', { task: task() });
    await h.until(() => delivery()?.error !== undefined);
    assert.match(delivery()?.error ?? '', /Invalid URL/);
    assert.equal(h.registry.get(hook.id).failureCount, 1);
  });

  it("auto-disables as soon as failureCount exceeds 10 and drops that webhook's pending retries", async () => {
    h.receiver.respond(() => 500);
    const hook = await h.registry.create({ url: h.receiver.url, events: ['task.created'] });
    for (let i = 0; i < 11; i++) h.emit('task.created', { task: task(`T${i}`) });
    await h.receiver.waitFor(11);
    await h.until(() => h.registry.get(hook.id).failureCount === 11);
    const listed = h.registry.get(hook.id);
    assert.equal(listed.active, false);
    await h.until(() => h.registry.deliveries().every((d) => d.status === 'failed'));
    assert.ok(h.registry.deliveries().some((d) => /not retried: webhook disabled/.test(d.error ?? '')));
    await h.clock.advance(10_000);
    h.emit('task.created', { task: task('after') });
    await pause();
    assert.equal(h.receiver.requests.length, 11, 'a disabled webhook receives nothing');
    // Re-enabling resets the count and delivers again.
    h.receiver.respond(() => 200);
    await h.registry.setActive(hook.id, true);
    h.emit('task.created', { task: task('again') });
    await h.receiver.waitFor(12);
    await h.until(() => h.registry.get(hook.id).successCount === 1);
    assert.equal(h.registry.get(hook.id).failureCount, 0);
  });

  it('drops pending retries when the webhook is removed', async () => {
    h.receiver.respond(() => 500);
    const hook = await h.registry.create({ url: h.receiver.url, events: ['task.created'] });
    h.emit('task.created', { task: task() });
    await h.until(() => delivery()?.error !== undefined);
    await h.registry.remove(hook.id);
    assert.equal(delivery()?.status, 'failed');
    await h.clock.advance(10_000);
    await pause();
    assert.equal(h.receiver.requests.length, 1);
  });

  it('delivers nothing while the HTTP API is switched off, and ends waiting retries', async () => {
    h.receiver.respond(() => 500);
    await h.registry.create({ url: h.receiver.url, events: ['task.created', 'task.deleted'] });
    h.emit('task.created', { task: task() });
    await h.until(() => delivery()?.error !== undefined);
    await h.settings.update((s) => {
      s.apiEnabled = false;
    });
    assert.equal(delivery()?.status, 'failed');
    assert.match(delivery()?.error ?? '', /HTTP API is disabled/);
    h.emit('task.deleted', { task: task() });
    await h.clock.advance(10_000);
    await pause();
    assert.equal(h.receiver.requests.length, 1);
    assert.equal(h.registry.deliveries().length, 1);
  });

  it('never makes the emitter wait, even for a receiver that hangs', async () => {
    h.receiver.respond(() => ({ status: 200, delayMs: 30_000 }));
    await h.registry.create({ url: h.receiver.url, events: ['task.created'] });
    const started = process.hrtime.bigint();
    for (let i = 0; i < 50; i++) h.emit('task.created', { task: task(`T${i}`) });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    assert.ok(ms < 200, `50 emits took ${ms} ms`);
    await h.receiver.waitFor(50);
    assert.ok(h.registry.deliveries().every((d) => d.status === 'pending'));
  });

  it('keeps the last 100 deliveries, oldest first', async () => {
    await h.registry.create({ url: h.receiver.url, events: ['task.created'] });
    for (let i = 0; i < 105; i++) h.emit('task.created', { task: task(`T${i}`) });
    await h.receiver.waitFor(105);
    const list = h.registry.deliveries();
    assert.equal(list.length, 100);
    assert.deepEqual(
      [(list[0]?.payload as any).data.task.title, (list[99]?.payload as any).data.task.title],
      ['T5', 'T104'],
    );
  });

  describe('transforms', () => {
    const send = async (transformFile: string, event: 'task.created' | 'task.deleted' = 'task.created') => {
      const hook = await h.registry.create({ url: h.receiver.url, events: [event], transformFile });
      h.emit(event, { task: task() });
      const [req] = await h.receiver.waitFor(1);
      assert.ok(req);
      assert.equal(
        req.headers['x-service-signature'],
        sign(hook.secret, req.raw),
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
