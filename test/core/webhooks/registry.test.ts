/**
 * The webhook registry on the store: defaults, validation messages, replacement, PATCH, counters
 * and what survives a reopen, and the move of webhooks out of an older settings.json.
 */
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { isDomainError } from '../../../src/core/errors.js';
import { EventBus } from '../../../src/core/events/bus.js';
import { silentLogger } from '../../../src/core/logger.js';
import { createHttpClient } from '../../../src/core/net/http-client.js';
import { SettingsStore } from '../../../src/core/state/settings.js';
import { openStore, type Store } from '../../../src/core/store/database.js';
import { EventJournal } from '../../../src/core/store/event-journal.js';
import { AddressGuard } from '../../../src/core/net/address-guard.js';
import { WebhookRegistry } from '../../../src/core/webhooks/registry.js';
import { createWebhookService } from '../../../src/core/webhooks/service.js';
import type { WebhookInput } from '../../../src/core/webhooks/types.js';
import { ManualClock } from '../../helpers/manual-clock.js';
import { tempDir } from '../../helpers/temp.js';

const URL = 'http://127.0.0.1:9/hook';

describe('webhook registry', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let clock: ManualClock;
  let store: Store;
  let registry: WebhookRegistry;
  const open = (): void => {
    store = openStore(dir.dir);
    const guard = new AddressGuard({ listenHost: '127.0.0.1', listenPort: () => 8080, allowPrivate: false });
    registry = new WebhookRegistry({ store, clock, guard });
  };

  beforeEach(async () => {
    dir = await tempDir('taskdown-registry-');
    clock = new ManualClock();
    open();
  });
  afterEach(async () => {
    await store.close();
    await dir.cleanup();
  });

  it('creates with defaults: generated id and 64-hex secret, active, headers on, seed signing and retries', async () => {
    const hook = await registry.create({ url: URL, events: ['task.created'] });
    assert.match(hook.id, /^wh_\d+_[0-9a-z]+$/);
    assert.match(hook.secret, /^[0-9a-f]{64}$/);
    assert.deepEqual(
      { ...hook, id: 'x', secret: 'x' },
      {
        id: 'x',
        url: URL,
        events: ['task.created'],
        secret: 'x',
        active: true,
        corsHeaders: true,
        signing: 'taskdown',
        retrySchedule: [1, 2, 4],
        failureCount: 0,
        successCount: 0,
        createdAt: '2026-01-15T09:00:00.000Z',
      },
    );
    const { secret: _secret, ...listed } = hook;
    assert.deepEqual(registry.list(), [listed]);
    assert.equal('secret' in registry.get(hook.id), false);
  });

  it('keeps given id, secret, active, transformFile, corsHeaders, signing and schedule; empty id/secret are generated', async () => {
    const hook = await registry.create({
      id: 'mine',
      url: URL,
      events: ['task.created', 'reminder.triggered'],
      secret: 's3cret',
      active: false,
      transformFile: 'hooks/t.json',
      corsHeaders: false,
      retrySchedule: [5, 300, 1800],
    });
    assert.deepEqual(
      [hook.id, hook.secret, hook.active, hook.transformFile, hook.corsHeaders, hook.retrySchedule],
      ['mine', 's3cret', false, 'hooks/t.json', false, [5, 300, 1800]],
    );
    const other = await registry.create({
      id: '',
      secret: '',
      url: URL,
      events: ['task.created'],
      transformFile: '',
    });
    assert.match(other.id, /^wh_/);
    assert.match(other.secret, /^[0-9a-f]{64}$/);
    assert.equal('transformFile' in other, false);
  });

  const bad: Array<[string, unknown, string | RegExp]> = [
    ['no url', { events: ['task.created'] }, 'URL is required and must be a string'],
    ['non-string url', { url: 5, events: ['task.created'] }, 'URL is required and must be a string'],
    [
      'relative url',
      { url: '/hook', events: ['task.created'] },
      'URL must be an absolute http:// or https:// URL',
    ],
    [
      'ftp url',
      { url: 'ftp://x/y', events: ['task.created'] },
      'URL must be an absolute http:// or https:// URL',
    ],
    ['no events', { url: URL }, 'Events array is required and must contain valid webhook events'],
    [
      'empty events',
      { url: URL, events: [] },
      'Events array is required and must contain valid webhook events',
    ],
    [
      'unknown event',
      { url: URL, events: ['task.created', 'task.exploded'] },
      'Events array is required and must contain valid webhook events',
    ],
    ['ping as an event', { url: URL, events: ['webhook.ping'] }, /Events array/],
    ['string active', { url: URL, events: ['task.created'], active: 'false' }, 'active must be a boolean'],
    [
      'string corsHeaders',
      { url: URL, events: ['task.created'], corsHeaders: 'no' },
      'corsHeaders must be a boolean',
    ],
    [
      'numeric transformFile',
      { url: URL, events: ['task.created'], transformFile: 1 },
      'transformFile must be a string',
    ],
    [
      'unknown signing',
      { url: URL, events: ['task.created'], signing: 'hmac' },
      'signing must be "taskdown" or "standard"',
    ],
    ['zero wait', { url: URL, events: ['task.created'], retrySchedule: [0] }, /retrySchedule/],
    [
      'too many retries',
      { url: URL, events: ['task.created'], retrySchedule: Array(21).fill(1) },
      /at most 20/,
    ],
    ['a wait over a week', { url: URL, events: ['task.created'], retrySchedule: [604_801] }, /retrySchedule/],
    [
      'metadata address',
      { url: 'http://169.254.169.254/', events: ['task.created'] },
      /^Webhook URL is not allowed: 169\.254\.169\.254 is a link-local/,
    ],
    ['own address', { url: 'http://127.0.0.1:8080/api/tasks', events: ['task.created'] }, /own address/],
    // Not addressable by /api/webhooks/:id: its `deliveries` is the delivery log.
    ['the id "deliveries"', { url: URL, events: ['task.created'], id: 'deliveries' }, /not "deliveries"/],
    ['an id of 257 characters', { url: URL, events: ['task.created'], id: 'w'.repeat(257) }, /at most 256/],
  ];
  for (const [what, input, message] of bad) {
    it(`rejects ${what} and changes nothing`, async () => {
      await assert.rejects(registry.create(input as WebhookInput), (err) => {
        assert.ok(isDomainError(err));
        assert.equal(err.code, 'INVALID');
        if (typeof message === 'string') assert.equal(err.message, message);
        else assert.match(err.message, message);
        return true;
      });
      assert.deepEqual(registry.list(), []);
    });
  }

  it('replaces an existing id in place: active again, counters reset, new secret, a new generation', async () => {
    const a = await registry.create({ id: 'a', url: URL, events: ['task.created'] });
    await registry.create({ id: 'b', url: URL, events: ['task.created'] });
    registry.counterUpdate('a', { success: 3, failure: 11, disable: true });
    registry.applyCounters('a', { success: 3, failure: 11, disable: true });
    assert.equal(registry.get('a').active, false);
    const generation = registry.generation('a');
    const again = await registry.create({ id: 'a', url: 'https://example.org/x', events: ['task.updated'] });
    assert.notEqual(again.secret, a.secret);
    assert.notEqual(registry.generation('a'), generation);
    assert.deepEqual(
      registry.list().map((h) => [h.id, h.url, h.active, h.failureCount, h.successCount]),
      [
        ['a', 'https://example.org/x', true, 0, 0],
        ['b', URL, true, 0, 0],
      ],
    );
  });

  it('removes, and answers Webhook not found for unknown ids', async () => {
    await registry.create({ id: 'a', url: URL, events: ['task.created'] });
    registry.remove('a');
    assert.deepEqual(registry.list(), []);
    for (const call of [
      () => registry.remove('a'),
      () => registry.setActive('a', true),
      () => registry.get('a'),
    ]) {
      assert.throws(call, { code: 'NOT_FOUND', message: 'Webhook not found' });
    }
    await assert.rejects(registry.update('a', {}), { code: 'NOT_FOUND', message: 'Webhook not found' });
  });

  it('patches settings with the same validation; the secret and counters stay', async () => {
    const created = await registry.create({
      id: 'a',
      url: URL,
      events: ['task.created'],
      transformFile: 't.json',
    });
    registry.counterUpdate('a', { success: 2, failure: 1, disable: false });
    registry.applyCounters('a', { success: 2, failure: 1, disable: false });
    const updated = await registry.update('a', {
      url: 'https://example.org/new',
      events: ['time.started'],
      corsHeaders: false,
      transformFile: null,
      retrySchedule: [60],
    });
    assert.deepEqual(
      [updated.url, updated.events, updated.corsHeaders, 'transformFile' in updated, updated.retrySchedule],
      ['https://example.org/new', ['time.started'], false, false, [60]],
    );
    assert.deepEqual([updated.successCount, updated.failureCount], [2, 1]);
    assert.equal(registry.find('a')?.secret, created.secret);
    await assert.rejects(registry.update('a', { url: 'nope' }), {
      message: 'URL must be an absolute http:// or https:// URL',
    });
    await assert.rejects(registry.update('a', { url: 'http://[fe80::1]/' }), /not allowed/);
    await assert.rejects(registry.update('a', { events: [] }), { code: 'INVALID' });
    assert.equal(registry.get('a').url, 'https://example.org/new');
  });

  it('re-enabling (setActive or PATCH active) resets failureCount', async () => {
    await registry.create({ id: 'a', url: URL, events: ['task.created'] });
    const delta = { success: 0, failure: 11, disable: true };
    registry.counterUpdate('a', delta);
    registry.applyCounters('a', delta);
    assert.deepEqual(registry.subscribers('task.created'), []);
    const enabled = registry.setActive('a', true);
    assert.deepEqual([enabled.active, enabled.failureCount], [true, 0]);
    registry.setActive('a', false);
    registry.counterUpdate('a', { success: 0, failure: 4, disable: false });
    registry.applyCounters('a', { success: 0, failure: 4, disable: false });
    const patched = await registry.update('a', { active: true });
    assert.deepEqual([patched.active, patched.failureCount], [true, 0]);
  });

  it('keeps webhooks, secrets, counters and rotation across a reopen', async () => {
    await registry.create({ id: 'a', url: URL, events: ['task.created'], signing: 'standard' });
    const rotated = registry.rotateSecret('a', 3600);
    const delta = { success: 5, failure: 2, lastTriggered: clock.now(), disable: false };
    registry.counterUpdate('a', delta);
    registry.applyCounters('a', delta);
    const before = registry.find('a');
    await store.close();
    open();
    assert.deepEqual(registry.find('a'), before);
    assert.equal(registry.find('a')?.secret, rotated.secret);
    assert.equal(registry.get('a').previousSecretExpiresAt, rotated.previousSecretExpiresAt);
  });
});

describe('webhooks of an earlier release', () => {
  it('move from settings.json into the store with their secrets and counters, once', async () => {
    const dir = await tempDir('taskdown-legacy-');
    try {
      const legacy = {
        version: 1,
        apiEnabled: true,
        apiToken: null,
        webhooks: [
          {
            id: 'wh_old',
            url: URL,
            events: ['task.created'],
            secret: 'old-secret',
            active: false,
            corsHeaders: true,
            failureCount: 11,
            successCount: 7,
            createdAt: '2025-12-01T10:00:00.000Z',
            lastTriggered: '2025-12-02T10:00:00.000Z',
          },
        ],
        icsSubscriptions: [],
        calendarProviders: {},
      };
      await writeFile(path.join(dir.dir, 'settings.json'), JSON.stringify(legacy));
      const start = async () => {
        const store = openStore(dir.dir);
        const clock = new ManualClock();
        const journal = new EventJournal(store, { name: 'v', path: '/v' }, silentLogger);
        journal.attach(new EventBus(clock, silentLogger));
        const settings = await SettingsStore.open(dir.dir);
        const http = createHttpClient();
        const service = await createWebhookService({
          store,
          journal,
          settings,
          http,
          clock,
          log: silentLogger,
          paths: { root: dir.dir, dataDir: dir.dir },
          timeoutMs: 1000,
          guard: { listenHost: '127.0.0.1', listenPort: () => undefined, allowPrivate: false },
        });
        return {
          service,
          async stop() {
            await service.stop();
            await settings.flush();
            await http.close();
            await store.close();
          },
        };
      };
      const first = await start();
      assert.deepEqual(first.service.get('wh_old'), {
        id: 'wh_old',
        url: URL,
        events: ['task.created'],
        active: false,
        corsHeaders: true,
        signing: 'taskdown',
        retrySchedule: [1, 2, 4],
        failureCount: 11,
        successCount: 7,
        createdAt: '2025-12-01T10:00:00.000Z',
        lastTriggered: '2025-12-02T10:00:00.000Z',
      });
      await first.stop();
      const settingsFile = JSON.parse(await readFile(path.join(dir.dir, 'settings.json'), 'utf8'));
      assert.equal('webhooks' in settingsFile, false, 'the secret no longer sits in settings.json');
      const second = await start();
      assert.equal(second.service.list().length, 1);
      await second.stop();
    } finally {
      await dir.cleanup();
    }
  });
});
