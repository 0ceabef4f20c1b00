import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { isDomainError } from '../../../src/core/errors.js';
import { silentLogger } from '../../../src/core/logger.js';
import { SettingsStore } from '../../../src/core/state/settings.js';
import { DeliveryLog } from '../../../src/core/webhooks/delivery-log.js';
import { WebhookRegistry } from '../../../src/core/webhooks/registry.js';
import type { WebhookInput } from '../../../src/core/webhooks/types.js';
import { ManualClock, settle } from '../../helpers/manual-clock.js';
import { tempDir } from '../../helpers/temp.js';

const URL = 'http://127.0.0.1:9/hook';

describe('webhook registry', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let clock: ManualClock;
  let settings: SettingsStore;
  let registry: WebhookRegistry;
  const open = async (): Promise<void> => {
    settings = await SettingsStore.open(dir.dir);
    registry = new WebhookRegistry({ settings, clock, log: silentLogger, deliveries: new DeliveryLog() });
  };
  const stored = async (): Promise<Array<Record<string, unknown>>> =>
    (JSON.parse(await readFile(path.join(dir.dir, 'settings.json'), 'utf8')) as { webhooks: [] }).webhooks;

  beforeEach(async () => {
    dir = await tempDir('taskdown-registry-');
    clock = new ManualClock();
    await open();
  });
  afterEach(() => dir.cleanup());

  it('creates with defaults: generated id and 64-hex secret, active, custom headers on', async () => {
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
        failureCount: 0,
        successCount: 0,
        createdAt: '2026-01-15T09:00:00.000Z',
      },
    );
    assert.deepEqual(
      registry.list(),
      [{ ...hook, secret: undefined }].map(({ secret: _s, ...rest }) => rest),
    );
    assert.equal('secret' in (registry.list()[0] ?? {}), false);
    assert.equal('secret' in registry.get(hook.id), false);
  });

  it('keeps given id, secret, active, transformFile and corsHeaders; empty id/secret are generated', async () => {
    const hook = await registry.create({
      id: 'mine',
      url: URL,
      events: ['task.created', 'reminder.triggered'],
      secret: 's3cret',
      active: false,
      transformFile: 'hooks/t.json',
      corsHeaders: false,
    });
    assert.equal(hook.id, 'mine');
    assert.equal(hook.secret, 's3cret');
    assert.equal(hook.active, false);
    assert.equal(hook.transformFile, 'hooks/t.json');
    assert.equal(hook.corsHeaders, false);
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

  const bad: Array<[string, unknown, string]> = [
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
  ];
  for (const [what, input, message] of bad) {
    it(`rejects ${what} with "${message}" and changes nothing`, async () => {
      await assert.rejects(registry.create(input as WebhookInput), (err) => {
        assert.ok(isDomainError(err));
        assert.equal(err.code, 'INVALID');
        assert.equal(err.message, message);
        return true;
      });
      assert.deepEqual(registry.list(), []);
    });
  }

  it('replaces an existing id in place: active again, counters reset, new secret', async () => {
    const a = await registry.create({ id: 'a', url: URL, events: ['task.created'] });
    await registry.create({ id: 'b', url: URL, events: ['task.created'] });
    const ref = registry.subscribers('task.created')[0]?.ref;
    assert.ok(ref);
    for (let i = 0; i < 11; i++) registry.recordFailure(ref);
    assert.equal(registry.get('a').active, false);
    const again = await registry.create({ id: 'a', url: 'https://example.org/x', events: ['task.updated'] });
    assert.notEqual(again.secret, a.secret);
    assert.deepEqual(
      registry.list().map((h) => [h.id, h.url, h.active, h.failureCount]),
      [
        ['a', 'https://example.org/x', true, 0],
        ['b', URL, true, 0],
      ],
    );
    // Late results of the old version do not count against the new one.
    registry.recordFailure(ref);
    assert.equal(registry.get('a').failureCount, 0);
  });

  it('removes, and answers Webhook not found for unknown ids', async () => {
    await registry.create({ id: 'a', url: URL, events: ['task.created'] });
    await registry.remove('a');
    assert.deepEqual(registry.list(), []);
    for (const call of [
      () => registry.remove('a'),
      () => registry.setActive('a', true),
      () => registry.update('a', {}),
    ]) {
      await assert.rejects(call(), { code: 'NOT_FOUND', message: 'Webhook not found' });
    }
    assert.throws(() => registry.get('a'), { code: 'NOT_FOUND', message: 'Webhook not found' });
  });

  it('updates url, events, transform and headers with the same validation', async () => {
    await registry.create({ id: 'a', url: URL, events: ['task.created'], transformFile: 't.json' });
    const updated = await registry.update('a', {
      url: 'https://example.org/new',
      events: ['time.started'],
      corsHeaders: false,
      transformFile: null,
    });
    assert.deepEqual(
      [updated.url, updated.events, updated.corsHeaders, 'transformFile' in updated],
      ['https://example.org/new', ['time.started'], false, false],
    );
    await assert.rejects(registry.update('a', { url: 'nope' }), {
      message: 'URL must be an absolute http:// or https:// URL',
    });
    await assert.rejects(registry.update('a', { events: [] }), { code: 'INVALID' });
    assert.equal(registry.get('a').url, 'https://example.org/new');
  });

  it('auto-disables once failureCount exceeds 10; re-enabling resets failureCount', async () => {
    await registry.create({ id: 'a', url: URL, events: ['task.created'] });
    const ref = registry.subscribers('task.created')[0]?.ref;
    assert.ok(ref);
    for (let i = 1; i <= 10; i++) assert.equal(registry.recordFailure(ref)?.active, true, `failure ${i}`);
    assert.equal(registry.recordFailure(ref)?.active, false);
    assert.equal(registry.get('a').failureCount, 11);
    assert.deepEqual(registry.subscribers('task.created'), []);
    const enabled = await registry.setActive('a', true);
    assert.deepEqual([enabled.active, enabled.failureCount], [true, 0]);
    await registry.setActive('a', false);
    assert.equal(registry.get('a').active, false);
  });

  it('coalesces counter saves and persists them across a reopen', async () => {
    await registry.create({ id: 'a', url: URL, events: ['task.created'] });
    const ref = registry.subscribers('task.created')[0]?.ref;
    assert.ok(ref);
    for (let i = 0; i < 500; i++) registry.recordSuccess(ref, new Date(clock.now()).toISOString());
    registry.recordFailure(ref);
    assert.equal(registry.get('a').successCount, 500);
    assert.equal((await stored())[0]?.successCount, 0, 'not written per attempt');
    assert.equal(clock.pending(), 1, 'one save scheduled for all of them');
    await clock.advance(250);
    await settings.flush();
    await settle();
    const saved = (await stored())[0];
    assert.deepEqual(
      [saved?.successCount, saved?.failureCount, saved?.lastTriggered],
      [500, 1, '2026-01-15T09:00:00.000Z'],
    );
    assert.equal(registry.get('a').successCount, 500, 'not counted twice after the save');
    registry.recordSuccess(ref, 'later');
    await registry.flush();
    await open();
    assert.deepEqual([registry.get('a').successCount, registry.get('a').lastTriggered], [501, 'later']);
  });

  it('keeps counters that arrive while a save is being written', async () => {
    await registry.create({ id: 'a', url: URL, events: ['task.created'] });
    const ref = registry.subscribers('task.created')[0]?.ref;
    assert.ok(ref);
    registry.recordSuccess(ref, 't1');
    const saving = registry.flush();
    registry.recordSuccess(ref, 't2');
    assert.equal(registry.get('a').successCount, 2);
    await saving;
    assert.equal(registry.get('a').successCount, 2);
    await registry.flush();
    assert.equal((await stored())[0]?.successCount, 2);
  });
});
