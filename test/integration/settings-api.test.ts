/**
 * The settings page's backend (/settings-api/*) and static files against the real server: the
 * API switch and token (docs/api-decisions.md), the command-line token override, auth and CORS on the page's
 * routes, and webhook management that shares the /api/webhooks set (as on the TaskNotes plugin's settings page, docs/api-decisions.md).
 */
import assert from 'node:assert/strict';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { tempDir, writeFiles } from '../helpers/temp.js';
import { startTestServer, type TestServer } from '../helpers/server-process.js';
import { ensureWebBuild } from '../helpers/web-build.js';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('settings page: static files', () => {
  let server: TestServer;
  before(async () => {
    await ensureWebBuild();
    server = await startTestServer();
  });
  after(() => server.cleanup());

  it('serves the page at / with a strict content security policy', async () => {
    const res = await server.request('GET', '/');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(res.text, /<div id="app"><\/div>/);
    assert.match(res.text, /src="\/assets\/main\.js"/);
    const csp = res.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self'/);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
  });

  it('serves the bundle, stylesheet and icon from the package, not a CDN', async () => {
    const js = await server.request('GET', '/assets/main.js');
    assert.equal(js.status, 200);
    assert.match(js.headers.get('content-type') ?? '', /^application\/javascript/);
    assert.doesNotMatch(js.text, /https?:\/\/(cdn|unpkg|esm\.sh|jsdelivr)/);
    const css = await server.request('GET', '/assets/styles.css');
    assert.equal(css.status, 200);
    assert.match(css.headers.get('content-type') ?? '', /^text\/css/);
    const icon = await server.request('GET', '/assets/favicon.svg');
    assert.equal(icon.status, 200);
    // Revalidated, not fetched again: the files are served with an ETag and no-cache.
    const etag = js.headers.get('etag');
    assert.ok(etag);
    assert.equal(js.headers.get('cache-control'), 'no-cache');
    // fetch() would add `Cache-Control: no-cache` to a conditional request; a browser revalidating sends this.
    const again = await server.request('GET', '/assets/main.js', undefined, {
      'If-None-Match': etag,
      'Cache-Control': 'max-age=0',
    });
    assert.equal(again.status, 304);
  });

  it('serves nothing outside dist/web/assets', async () => {
    for (const p of [
      '/assets/..%2F..%2Fpackage.json',

      '/assets/.hidden.js',
      '/assets/nope.js',
      '/assets/index.html',
    ]) {
      const res = await server.request('GET', p);
      assert.equal(res.status, 404, p);
    }
  });

  it('keeps the page and its backend out of the OpenAPI document', async () => {
    const doc = await server.request('GET', '/api/docs');
    const paths = Object.keys(doc.body.paths);
    // The API and the MCP endpoint are documented; the settings page and its backend are not.
    assert.ok(
      paths.every((p) => p.startsWith('/api/') || p === '/mcp'),
      paths.join(', '),
    );
    assert.ok(!paths.some((p) => p.startsWith('/settings')));
  });
});

describe('settings page: HTTP API switch and token', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.cleanup());

  it('reports the switch, the bound address and the token state', async () => {
    const res = await server.request('GET', '/settings-api/api');
    assert.equal(res.status, 200);
    const port = Number(new URL(server.url).port);
    assert.deepEqual(
      { ...res.body.data, version: undefined },
      {
        apiEnabled: true,
        host: '127.0.0.1',
        port,
        tokenSet: false,
        tokenSource: 'none',
        version: undefined,
        vault: { name: path.basename(server.vault), path: server.vault },
      },
    );
  });

  it('switching the API off answers 503 on /api while the settings backend stays reachable', async () => {
    const off = await server.request('PUT', '/settings-api/api', { enabled: false });
    assert.equal(off.status, 200);
    assert.equal(off.body.data.apiEnabled, false);
    const health = await server.request('GET', '/api/health');
    assert.equal(health.status, 503);
    assert.deepEqual(health.body, { success: false, error: 'HTTP API is disabled' });
    assert.equal((await server.request('GET', '/settings-api/api')).status, 200);
    const stored = JSON.parse(await readFile(path.join(server.dataDir, 'settings.json'), 'utf8'));
    assert.equal(stored.apiEnabled, false);

    const on = await server.request('PUT', '/settings-api/api', { enabled: true });
    assert.equal(on.body.data.apiEnabled, true);
    assert.equal((await server.request('GET', '/api/health')).status, 200);
  });

  it('rejects a switch value that is not a boolean', async () => {
    const res = await server.request('PUT', '/settings-api/api', { enabled: 'no' });
    assert.equal(res.status, 400);
    assert.equal(res.body.error, 'enabled must be a boolean');
  });

  it('sets a token that then guards /api and /settings-api, and never returns it', async () => {
    const weak = await server.request('PUT', '/settings-api/api/token', { token: 'short' });
    assert.equal(weak.status, 400);
    assert.match(weak.body.error, /8 to 256 visible ASCII characters/);
    const spaced = await server.request('PUT', '/settings-api/api/token', { token: 'has a space in it' });
    assert.equal(spaced.status, 400);

    const token = 'page-token-0123456789';
    const set = await server.request('PUT', '/settings-api/api/token', { token });
    assert.equal(set.status, 200);
    assert.equal(set.body.data.tokenSet, true);
    assert.equal(set.body.data.tokenSource, 'settings');
    assert.ok(!set.text.includes(token));

    for (const p of ['/settings-api/api', '/settings-api/webhooks', '/api/health']) {
      const res = await server.request('GET', p);
      assert.equal(res.status, 401, p);
      assert.equal(res.body.error, 'Authentication required');
      assert.equal((await server.request('GET', p, undefined, bearer(token))).status, 200, p);
    }
    const status = await server.request('GET', '/settings-api/api', undefined, bearer(token));
    assert.ok(!status.text.includes(token));
    // The page itself loads without the token: it has to, to ask for it.
    assert.equal((await server.request('GET', '/')).status, 200);

    const file = path.join(server.dataDir, 'settings.json');
    assert.equal(JSON.parse(await readFile(file, 'utf8')).apiToken, token);
    assert.equal((await stat(file)).mode & 0o777, 0o600);
  });

  it('rotates the token (returned once) and clears it', async () => {
    const old = 'page-token-0123456789';
    const rotated = await server.request('POST', '/settings-api/api/token/rotate', undefined, bearer(old));
    assert.equal(rotated.status, 200);
    const token = rotated.body.data.token as string;
    assert.match(token, /^[0-9a-f]{64}$/);
    assert.equal(rotated.body.data.api.tokenSource, 'settings');
    assert.equal((await server.request('GET', '/settings-api/api', undefined, bearer(old))).status, 401);
    const status = await server.request('GET', '/settings-api/api', undefined, bearer(token));
    assert.equal(status.status, 200);
    assert.ok(!status.text.includes(token));

    const cleared = await server.request('DELETE', '/settings-api/api/token', undefined, bearer(token));
    assert.equal(cleared.status, 200);
    assert.equal(cleared.body.data.tokenSet, false);
    assert.equal((await server.request('GET', '/api/health')).status, 200);
  });

  it('applies the API rules for origins to the settings backend', async () => {
    const evil = await server.request('GET', '/settings-api/api', undefined, {
      origin: 'https://evil.example',
    });
    assert.equal(evil.status, 403);
    assert.equal(evil.body.error, 'CORS origin is not allowed');
    const local = await server.request(
      'PUT',
      '/settings-api/api',
      { enabled: true },
      { origin: 'http://localhost:5173' },
    );
    assert.equal(local.status, 200);
    assert.equal(local.headers.get('access-control-allow-origin'), 'http://localhost:5173');
  });
});

describe('settings page: token from the command line', () => {
  let server: TestServer;
  const token = 'cli-token-abcdefgh';
  before(async () => {
    server = await startTestServer({ token });
  });
  after(() => server.cleanup());

  it('shows the command-line token as the source and refuses to change it', async () => {
    const res = await server.request('GET', '/settings-api/api', undefined, bearer(token));
    assert.equal(res.body.data.tokenSource, 'command-line');
    assert.equal(res.body.data.tokenSet, true);
    for (const [method, p, body] of [
      ['PUT', '/settings-api/api/token', { token: 'another-token-123' }],
      ['POST', '/settings-api/api/token/rotate', undefined],
      ['DELETE', '/settings-api/api/token', undefined],
    ] as const) {
      const r = await server.request(method, p, body, bearer(token));
      assert.equal(r.status, 400, `${method} ${p}`);
      assert.match(r.body.error, /set by the server's command line/);
    }
    assert.equal((await server.request('GET', '/api/health', undefined, bearer(token))).status, 200);
  });
});

describe('settings page: webhooks', () => {
  let server: TestServer;
  before(async () => {
    // A webhook that was auto-disabled after failing: re-enabling from the page resets the count.
    const data = await tempDir('taskdown-data-');
    await writeFiles(data.dir, {
      'settings.json': JSON.stringify({
        version: 1,
        apiEnabled: true,
        apiToken: null,
        webhooks: [
          {
            id: 'wh_failing',
            url: 'http://127.0.0.1:9/down',
            events: ['task.created'],
            secret: 's3cret-value',
            active: false,
            corsHeaders: true,
            failureCount: 11,
            successCount: 2,
            createdAt: '2026-01-01T00:00:00.000Z',
          },
        ],
        icsSubscriptions: [],
        calendarProviders: {},
      }),
    });
    server = await startTestServer({ dataDir: data.dir });
    after(data.cleanup);
  });
  after(() => server.cleanup());

  it('lists webhooks without secrets, with the 14 event names', async () => {
    const res = await server.request('GET', '/settings-api/webhooks');
    assert.equal(res.status, 200);
    assert.equal(res.body.data.eventNames.length, 14);
    assert.ok(res.body.data.eventNames.includes('recurring.instance.skipped'));
    assert.equal(res.body.data.webhooks[0].id, 'wh_failing');
    assert.ok(!res.text.includes('s3cret-value'));
  });

  it('re-enabling resets the failure count; disabling keeps it', async () => {
    const on = await server.request('PUT', '/settings-api/webhooks/wh_failing/active', { active: true });
    assert.equal(on.status, 200);
    assert.equal(on.body.data.webhook.active, true);
    assert.equal(on.body.data.webhook.failureCount, 0);
    assert.equal(on.body.data.webhook.successCount, 2);
    const off = await server.request('PUT', '/settings-api/webhooks/wh_failing/active', { active: false });
    assert.equal(off.body.data.webhook.active, false);
    const api = await server.request('GET', '/api/webhooks');
    assert.equal(api.body.data.webhooks[0].active, false);
  });

  it('creates a webhook whose secret is returned once, visible through /api/webhooks', async () => {
    const res = await server.request('POST', '/settings-api/webhooks', {
      url: 'https://example.com/hook',
      events: ['task.created', 'task.completed'],
      transformFile: '  ',
      corsHeaders: false,
    });
    assert.equal(res.status, 201);
    const { webhook } = res.body.data;
    assert.match(webhook.secret, /^[0-9a-f]{64}$/);
    assert.match(webhook.id, /^wh_/);
    assert.equal(webhook.corsHeaders, false);
    assert.equal('transformFile' in webhook, false);
    const api = await server.request('GET', '/api/webhooks');
    const listed = api.body.data.webhooks.find((w: any) => w.id === webhook.id);
    assert.deepEqual(listed.events, ['task.created', 'task.completed']);
    assert.equal('secret' in listed, false);
  });

  it('rejects a webhook without a valid URL or events, and a page-chosen secret', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ events: ['task.created'] }, /URL is required/],
      [{ url: 'ftp://x', events: ['task.created'] }, /absolute http/],
      [{ url: 'https://example.com', events: [] }, /Events array is required/],
      [{ url: 'https://example.com', events: ['task.exploded'] }, /Events array is required/],
      [{ url: 'https://example.com', events: ['task.created'], secret: 'mine' }, /./],
    ];
    const before = (await server.request('GET', '/api/webhooks')).body.data.total;
    for (const [body, message] of cases) {
      const res = await server.request('POST', '/settings-api/webhooks', body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.match(res.body.error, message);
    }
    assert.equal((await server.request('GET', '/api/webhooks')).body.data.total, before);
  });

  it('edits url, events, transform file and custom headers, and clears the transform', async () => {
    const edited = await server.request('PUT', '/settings-api/webhooks/wh_failing', {
      url: 'https://example.org/new',
      events: ['task.updated'],
      transformFile: 'templates/slack.json',
      corsHeaders: false,
    });
    assert.equal(edited.status, 200);
    assert.deepEqual(
      { ...edited.body.data.webhook, createdAt: undefined },
      {
        id: 'wh_failing',
        url: 'https://example.org/new',
        events: ['task.updated'],
        active: false,
        transformFile: 'templates/slack.json',
        corsHeaders: false,
        signing: 'taskdown',
        retrySchedule: [1, 2, 4],
        failureCount: 0,
        successCount: 2,
        createdAt: undefined,
      },
    );
    const cleared = await server.request('PUT', '/settings-api/webhooks/wh_failing', { transformFile: '' });
    assert.equal('transformFile' in cleared.body.data.webhook, false);
    const bad = await server.request('PUT', '/settings-api/webhooks/wh_failing', { events: [] });
    assert.equal(bad.status, 400);
    const missing = await server.request('PUT', '/settings-api/webhooks/wh_nope', {
      events: ['task.created'],
    });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error, 'Webhook not found');
  });

  it('lists deliveries without payloads and deletes webhooks', async () => {
    const log = await server.request('GET', '/settings-api/webhooks/deliveries');
    assert.equal(log.status, 200);
    assert.deepEqual(log.body.data, { deliveries: [], total: 0 });
    const del = await server.request('DELETE', '/settings-api/webhooks/wh_failing');
    assert.equal(del.status, 200);
    assert.equal((await server.request('DELETE', '/settings-api/webhooks/wh_failing')).status, 404);
    const api = await server.request('GET', '/api/webhooks');
    assert.ok(api.body.data.webhooks.every((w: any) => w.id !== 'wh_failing'));
  });
});

describe('settings page: ICS subscriptions', () => {
  let server: TestServer;
  const ics = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//taskdown test//EN',
    'BEGIN:VEVENT',
    'UID:sync-1@test',
    'DTSTAMP:20260101T000000Z',
    'DTSTART:20261201T100000Z',
    'DTEND:20261201T110000Z',
    'SUMMARY:Team sync',
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
  before(async () => {
    server = await startTestServer({ files: { 'Calendars/team.ics': ics } });
  });
  after(() => server.cleanup());

  it('adds, refreshes, edits and removes a subscription shared with /api/calendars', async () => {
    const added = await server.request('POST', '/settings-api/calendars/subscriptions', {
      name: 'Team',
      type: 'local',
      filePath: 'Calendars/team.ics',
      color: '#336699',
      enabled: true,
      refreshInterval: 30,
    });
    assert.equal(added.status, 201, added.text);
    const { id } = added.body.data.subscription;

    const refreshed = await server.request('POST', `/settings-api/calendars/subscriptions/${id}/refresh`);
    assert.equal(refreshed.status, 200);
    assert.match(refreshed.body.data.subscription.lastFetched, /^\d{4}-\d{2}-\d{2}T/);
    assert.equal(refreshed.body.data.subscription.lastError, null);

    const edited = await server.request('PUT', `/settings-api/calendars/subscriptions/${id}`, {
      name: 'Team calendar',
      refreshInterval: 15,
    });
    assert.equal(edited.status, 200);
    assert.equal(edited.body.data.subscription.name, 'Team calendar');
    const listed = await server.request('GET', '/settings-api/calendars/subscriptions');
    assert.equal(listed.body.data.subscriptions.length, 1);
    assert.equal(listed.body.data.subscriptions[0].refreshInterval, 15);
    const api = await server.request('GET', '/api/calendars/subscriptions');
    assert.ok(JSON.stringify(api.body.data).includes('Team calendar'));

    const removed = await server.request('DELETE', `/settings-api/calendars/subscriptions/${id}`);
    assert.equal(removed.status, 200);
    const after = await server.request('GET', '/settings-api/calendars/subscriptions');
    assert.deepEqual(after.body.data.subscriptions, []);
  });

  it('reports a feed that cannot be fetched in lastError, and rejects bad input', async () => {
    const added = await server.request('POST', '/settings-api/calendars/subscriptions', {
      name: 'Down',
      type: 'remote',
      url: 'http://127.0.0.1:9/feed.ics',
    });
    assert.equal(added.status, 201, added.text);
    const { id } = added.body.data.subscription;
    const refreshed = await server.request('POST', `/settings-api/calendars/subscriptions/${id}/refresh`);
    assert.equal(refreshed.status, 200);
    assert.match(refreshed.body.data.subscription.lastError, /.+/);

    for (const body of [{ name: '', url: 'https://example.com/a.ics' }, { name: 'x', url: 'ftp://x' }, []]) {
      const res = await server.request('POST', '/settings-api/calendars/subscriptions', body);
      assert.equal(res.status, 400, JSON.stringify(body));
    }
    const missing = await server.request('DELETE', '/settings-api/calendars/subscriptions/ics_nope');
    assert.equal(missing.status, 404);
  });
});
