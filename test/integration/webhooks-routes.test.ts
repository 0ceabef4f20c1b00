/**
 * The webhook routes against the real server process: the seed's four, and the management,
 * delivery-log, redeliver, ping and rotation routes, with envelope errors.
 */
import assert from 'node:assert/strict';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server-process.js';
import { tempDir } from '../helpers/temp.js';

const URL = 'http://127.0.0.1:9/hook';
const URL_MESSAGE = 'URL is required and must be a string';
const EVENTS_MESSAGE = 'Events array is required and must contain valid webhook events';

describe('webhook routes', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.cleanup());

  it('registers a webhook: 201 {webhook with secret, message}', async () => {
    const res = await server.request('POST', '/api/webhooks', { url: URL, events: ['task.created'] });
    assert.equal(res.status, 201);
    assert.equal(res.body.success, true);
    assert.equal(
      res.body.data.message,
      'Webhook registered successfully. Save the secret for signature validation.',
    );
    const hook = res.body.data.webhook;
    assert.match(hook.id, /^wh_\d+_[0-9a-z]+$/);
    assert.match(hook.secret, /^[0-9a-f]{64}$/);
    assert.deepEqual(
      { ...hook, id: undefined, secret: undefined, createdAt: undefined },
      {
        id: undefined,
        url: URL,
        events: ['task.created'],
        secret: undefined,
        active: true,
        corsHeaders: true,
        signing: 'taskdown',
        retrySchedule: [1, 2, 4],
        failureCount: 0,
        successCount: 0,
        createdAt: undefined,
      },
    );
    assert.match(hook.createdAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    await server.request('DELETE', `/api/webhooks/${hook.id}`);
  });

  const invalid: Array<[string, unknown, string]> = [
    ['empty body', undefined, URL_MESSAGE],
    ['an array body', [], URL_MESSAGE],
    ['a null body', 'null', URL_MESSAGE],
    ['a numeric url', { url: 42, events: ['task.created'] }, URL_MESSAGE],
    ['no url', { events: ['task.created'] }, URL_MESSAGE],
    ['a numeric url and no events', { url: 5 }, URL_MESSAGE],
    [
      'a relative url',
      { url: 'hooks/x', events: ['task.created'] },
      'URL must be an absolute http:// or https:// URL',
    ],
    ['no events', { url: URL }, EVENTS_MESSAGE],
    ['events not an array', { url: URL, events: 'task.created' }, EVENTS_MESSAGE],
    ['empty events', { url: URL, events: [] }, EVENTS_MESSAGE],
    ['an unknown event', { url: URL, events: ['task.created', 'Task.Created'] }, EVENTS_MESSAGE],
    ['a string active', { url: URL, events: ['task.created'], active: 'false' }, 'active must be a boolean'],
    [
      'a numeric corsHeaders',
      { url: URL, events: ['task.created'], corsHeaders: 0 },
      'corsHeaders must be a boolean',
    ],
    [
      'a numeric transformFile',
      { url: URL, events: ['task.created'], transformFile: 3 },
      'transformFile must be a string',
    ],
  ];
  for (const [what, body, message] of invalid) {
    it(`answers 400 "${message}" for ${what}, registering nothing`, async () => {
      const res = await server.request('POST', '/api/webhooks', body);
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, { success: false, error: message });
      assert.equal((await server.request('GET', '/api/webhooks')).body.data.total, 0);
    });
  }

  it('lists all webhooks without secrets, with total', async () => {
    await server.request('POST', '/api/webhooks', {
      id: 'one',
      url: URL,
      events: ['task.created', 'task.updated'],
      secret: 'my-secret',
      transformFile: 'hooks/t.json',
      corsHeaders: false,
      extra: 'ignored',
    });
    await server.request('POST', '/api/webhooks', {
      id: 'two',
      url: URL,
      events: ['time.started'],
      active: false,
    });
    const res = await server.request('GET', '/api/webhooks');
    assert.equal(res.status, 200);
    assert.equal(res.body.data.total, 2);
    assert.ok(!res.text.includes('my-secret'));
    const [one, two] = res.body.data.webhooks;
    assert.equal('secret' in one, false);
    assert.equal('secret' in two, false);
    assert.deepEqual(
      [one.id, one.transformFile, one.corsHeaders, one.active, 'extra' in one],
      ['one', 'hooks/t.json', false, true, false],
    );
    assert.deepEqual([two.id, two.active, 'transformFile' in two], ['two', false, false]);
  });

  it('replaces an existing id in place (active, counters reset)', async () => {
    const res = await server.request('POST', '/api/webhooks', {
      id: 'two',
      url: 'https://example.org/h',
      events: ['task.deleted'],
    });
    assert.equal(res.status, 201);
    const list = (await server.request('GET', '/api/webhooks')).body.data.webhooks;
    assert.deepEqual(
      list.map((h: any) => [h.id, h.url, h.active]),
      [
        ['one', URL, true],
        ['two', 'https://example.org/h', true],
      ],
    );
  });

  it('deletes: 200 {message}, then 404 Webhook not found', async () => {
    const res = await server.request('DELETE', '/api/webhooks/two');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { success: true, data: { message: 'Webhook deleted successfully' } });
    const again = await server.request('DELETE', '/api/webhooks/two');
    assert.equal(again.status, 404);
    assert.deepEqual(again.body, { success: false, error: 'Webhook not found' });
    const odd = await server.request('DELETE', `/api/webhooks/${encodeURIComponent('a/b')}`);
    assert.deepEqual([odd.status, odd.body.error], [404, 'Webhook not found']);
  });

  it('lists deliveries as {deliveries, total, hasMore}', async () => {
    const res = await server.request('GET', '/api/webhooks/deliveries');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { success: true, data: { deliveries: [], total: 0, hasMore: false } });
  });

  it('answers 404 in the envelope for unknown webhooks and deliveries on every route', async () => {
    for (const [method, url, body] of [
      ['GET', '/api/webhooks/wh_nope', undefined],
      ['PATCH', '/api/webhooks/wh_nope', { active: true }],
      ['POST', '/api/webhooks/wh_nope/ping', undefined],
      ['POST', '/api/webhooks/wh_nope/rotate-secret', {}],
      ['DELETE', '/api/webhooks/wh_nope', undefined],
    ] as const) {
      const res = await server.request(method, url, body);
      assert.deepEqual(
        [res.status, res.body],
        [404, { success: false, error: 'Webhook not found' }],
        `${method} ${url}`,
      );
    }
    for (const [method, url] of [
      ['GET', '/api/webhooks/deliveries/del_nope'],
      ['POST', '/api/webhooks/deliveries/del_nope/redeliver'],
    ] as const) {
      const res = await server.request(method, url);
      assert.deepEqual(
        [res.status, res.body],
        [404, { success: false, error: 'Delivery not found' }],
        `${method} ${url}`,
      );
    }
  });

  it('validates the delivery log query', async () => {
    for (const query of ['status=done', 'limit=0', 'limit=1001', 'limit=x']) {
      const res = await server.request('GET', `/api/webhooks/deliveries?${query}`);
      assert.equal(res.status, 400, query);
      assert.equal(res.body.success, false);
    }
    const res = await server.request('GET', '/api/webhooks/deliveries?before=del_nope');
    assert.deepEqual([res.status, res.body.error], [400, 'before: no delivery del_nope']);
  });

  it('documents every webhook route and the ping payload in OpenAPI', async () => {
    const doc = (await server.request('GET', '/api/docs')).body;
    const post = doc.paths['/api/webhooks'].post;
    assert.ok(post.responses['201']);
    assert.ok(JSON.stringify(post).includes('recurring.instance.skipped'));
    assert.ok(doc.paths['/api/webhooks/{id}'].delete);
    assert.ok(doc.paths['/api/webhooks/{id}'].get);
    assert.ok(doc.paths['/api/webhooks/{id}'].patch);
    assert.ok(doc.paths['/api/webhooks/{id}/ping'].post.responses['202']);
    assert.ok(doc.paths['/api/webhooks/{id}/rotate-secret'].post);
    assert.ok(doc.paths['/api/webhooks/deliveries'].get.parameters.some((p: any) => p.name === 'before'));
    assert.ok(doc.paths['/api/webhooks/deliveries/{id}'].get);
    assert.ok(doc.paths['/api/webhooks/deliveries/{id}/redeliver'].post.responses['202']);
    assert.ok(doc.webhooks['webhook.ping']);
  });
});

describe('webhook persistence', () => {
  it('keeps webhooks and their secrets across a restart of the server process, in the 0600 store', async () => {
    const vault = await tempDir('taskdown-whp-vault-');
    const data = await tempDir('taskdown-whp-data-');
    try {
      const first = await startTestServer({ vault: vault.dir, dataDir: data.dir });
      const created = (
        await first.request('POST', '/api/webhooks', {
          url: URL,
          events: ['task.created'],
          corsHeaders: false,
        })
      ).body.data.webhook;
      const listed = (await first.request('GET', '/api/webhooks')).body.data.webhooks;
      assert.equal(await first.stop(), 0);

      const file = path.join(data.dir, 'taskdown.sqlite');
      assert.equal((await stat(file)).mode & 0o777, 0o600);
      const settingsFile = await readFile(path.join(data.dir, 'settings.json'), 'utf8').catch(() => '');
      assert.ok(!settingsFile.includes(created.secret), 'no secret in settings.json');

      const second = await startTestServer({ vault: vault.dir, dataDir: data.dir });
      try {
        assert.deepEqual((await second.request('GET', '/api/webhooks')).body.data.webhooks, listed);
        const gone = await second.request('DELETE', `/api/webhooks/${created.id}`);
        assert.equal(gone.status, 200);
      } finally {
        await second.stop();
      }
      const third = await startTestServer({ vault: vault.dir, dataDir: data.dir });
      try {
        assert.equal((await third.request('GET', '/api/webhooks')).body.data.total, 0);
      } finally {
        await third.stop();
      }
    } finally {
      await vault.cleanup();
      await data.cleanup();
    }
  });
});
