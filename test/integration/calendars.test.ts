/**
 * Calendar routes against the real server (as in the TaskNotes plugin): ICS feeds fetched from
 * a local HTTP server and a vault file, Google and Microsoft APIs behind a local OAuth token
 * endpoint, merged events, and failing feeds that never break a route.
 */
import assert from 'node:assert/strict';
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  icsCalendar,
  icsEvent,
  icsUtc,
  startFixtureServer,
  type FixtureServer,
} from '../helpers/calendar-fixtures.js';
import { startTestServer, waitFor, type TestServer } from '../helpers/server-process.js';
import { tempDir } from '../helpers/temp.js';

const DAY = 86_400_000;
const today = Math.floor(Date.now() / DAY) * DAY; // UTC midnight
const at = (days: number, hours: number): number => today + days * DAY + hours * 3_600_000;

function feedIcs(): string {
  return icsCalendar([
    icsEvent({
      UID: 'single',
      SUMMARY: 'Dentist',
      DTSTART: icsUtc(at(2, 9)),
      DTEND: icsUtc(at(2, 10)),
      LOCATION: 'Clinic',
    }),
    icsEvent({
      UID: 'weekly',
      SUMMARY: 'Team sync',
      DTSTART: icsUtc(at(-7, 15)),
      DTEND: icsUtc(at(-7, 16)),
      RRULE: 'FREQ=WEEKLY;COUNT=4',
      EXDATE: icsUtc(at(0, 15)),
    }),
    icsEvent({
      UID: 'weekly',
      'RECURRENCE-ID': icsUtc(at(7, 15)),
      SUMMARY: 'Team sync (moved)',
      DTSTART: icsUtc(at(8, 11)),
      DTEND: icsUtc(at(8, 12)),
    }),
    // An event no calendar can read: left out, the others kept.
    icsEvent({
      UID: 'unreadable',
      SUMMARY: 'Never shown',
      DTSTART: icsUtc(at(3, 9)),
      RRULE: 'FREQ=SOMETIMES',
    }),
  ]);
}

const LOCAL_ICS = icsCalendar([
  icsEvent({
    UID: 'offsite',
    SUMMARY: 'Offsite',
    'DTSTART;VALUE=DATE': '20300102',
    'DTEND;VALUE=DATE': '20300103',
  }),
]);

describe('calendar routes with feeds and providers', () => {
  let fixtures: FixtureServer;
  let server: TestServer;
  let data: { dir: string; cleanup: () => Promise<void> };

  before(async () => {
    fixtures = await startFixtureServer();
    fixtures.routes.set('/feed.ics', () => ({ body: feedIcs() }));
    fixtures.routes.set('/broken.ics', () => ({ body: 'this is not a calendar' }));
    const tokens: Record<string, string> = { '/google/token': 'g-access', '/ms/token': 'm-access' };
    for (const [route, token] of Object.entries(tokens)) {
      fixtures.routes.set(route, (req) => {
        const form = new URLSearchParams(req.body);
        if (
          form.get('grant_type') !== 'refresh_token' ||
          !form.get('refresh_token')?.startsWith('refresh-')
        ) {
          return { status: 400, body: { error: 'invalid_grant' } };
        }
        return { body: { access_token: token, expires_in: 3600, token_type: 'Bearer' } };
      });
    }
    const authed = (token: string, body: object) => (req: { headers: Record<string, unknown> }) =>
      req.headers.authorization === `Bearer ${token}`
        ? { body }
        : { status: 401, body: { error: 'unauthorized' } };
    fixtures.routes.set(
      '/google/api/users/me/calendarList',
      authed('g-access', {
        items: [
          { id: 'me@example.com', summary: 'Me', primary: true, backgroundColor: '#123456' },
          { id: 'team@example.com', summary: 'Team', description: 'Shared' },
        ],
      }),
    );
    fixtures.routes.set(
      '/google/api/calendars/me%40example.com/events',
      authed('g-access', {
        items: [
          {
            id: 'g1',
            summary: 'Google meeting',
            start: { dateTime: new Date(at(1, 13)).toISOString() },
            end: { dateTime: new Date(at(1, 14)).toISOString() },
            htmlLink: 'https://calendar.example/g1',
          },
          { id: 'g2', status: 'cancelled', start: { dateTime: new Date(at(1, 8)).toISOString() } },
          { id: 'g3', summary: 'Holiday', start: { date: '2030-01-01' }, end: { date: '2030-01-02' } },
        ],
      }),
    );
    fixtures.routes.set('/ms/api/me', authed('m-access', { mail: 'me@contoso.example' }));
    fixtures.routes.set(
      '/ms/api/me/calendars',
      authed('m-access', {
        value: [{ id: 'cal-1', name: 'Calendar', isDefaultCalendar: true, hexColor: '#ff0000' }],
      }),
    );
    fixtures.routes.set(
      '/ms/api/me/calendarView',
      authed('m-access', {
        value: [
          {
            id: 'm1',
            subject: 'Outlook review',
            bodyPreview: 'Agenda',
            start: { dateTime: new Date(at(3, 10)).toISOString().replace('Z', '0000'), timeZone: 'UTC' },
            end: { dateTime: new Date(at(3, 11)).toISOString().replace('Z', '0000'), timeZone: 'UTC' },
            location: { displayName: 'Room 7' },
          },
        ],
      }),
    );

    data = await tempDir('taskdown-data-');
    const settings = {
      version: 1,
      icsSubscriptions: [
        {
          id: 'ics_feed',
          name: 'Feed',
          type: 'remote',
          url: `${fixtures.url}/feed.ics`,
          color: '#111111',
          enabled: true,
          refreshInterval: 60,
        },
        {
          id: 'ics_local',
          name: 'Local',
          type: 'local',
          filePath: 'Calendars/local.ics',
          color: '#222222',
          enabled: true,
          refreshInterval: 60,
        },
        {
          id: 'ics_broken',
          name: 'Broken',
          type: 'remote',
          url: `${fixtures.url}/broken.ics`,
          color: '#333333',
          enabled: true,
          refreshInterval: 60,
        },
        {
          id: 'ics_missing',
          name: 'Missing',
          type: 'remote',
          url: `${fixtures.url}/missing.ics`,
          color: '#444444',
          enabled: true,
          refreshInterval: 60,
        },
        {
          // Where cloud metadata services answer: the server must not fetch it for anyone.
          id: 'ics_metadata',
          name: 'Metadata',
          type: 'remote',
          url: 'http://169.254.169.254/latest/meta-data/',
          color: '#666666',
          enabled: true,
          refreshInterval: 60,
        },
        {
          id: 'ics_off',
          name: 'Off',
          type: 'remote',
          url: `${fixtures.url}/feed.ics`,
          color: '#555555',
          enabled: false,
          refreshInterval: 60,
        },
      ],
      calendarProviders: {
        google: {
          clientId: 'g-client',
          clientSecret: 'g-secret',
          refreshToken: 'refresh-g',
          apiBaseUrl: `${fixtures.url}/google/api`,
          tokenUrl: `${fixtures.url}/google/token`,
          calendarIds: ['me@example.com'],
          connectedAt: '2026-01-01T00:00:00.000Z',
        },
        microsoft: {
          clientId: 'm-client',
          clientSecret: 'm-secret',
          refreshToken: 'refresh-m',
          apiBaseUrl: `${fixtures.url}/ms/api`,
          tokenUrl: `${fixtures.url}/ms/token`,
        },
      },
    };
    await writeFile(path.join(data.dir, 'settings.json'), JSON.stringify(settings));
    server = await startTestServer({
      startTimeoutMs: 60_000,
      dataDir: data.dir,
      files: { 'Calendars/local.ics': LOCAL_ICS },
    });
  });

  // Each step runs even when startup failed part-way, so no process or listener is left behind.
  after(async () => {
    await server?.cleanup();
    await data?.cleanup();
    await fixtures?.close();
  });

  it('GET /api/calendars summarises providers and subscriptions', async () => {
    const res = await server.request('GET', '/api/calendars');
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.data, {
      providers: [
        { id: 'google', name: 'Google Calendar', connected: true, email: 'me@example.com', calendarCount: 2 },
        {
          id: 'microsoft',
          name: 'Microsoft Calendar',
          connected: true,
          email: 'me@contoso.example',
          calendarCount: 1,
        },
      ],
      subscriptions: { total: 6, enabled: 5 },
    });
  });

  it('GET /api/calendars/google and /microsoft report account and calendars', async () => {
    const g = await server.request('GET', '/api/calendars/google');
    assert.deepEqual(g.body.data, {
      connected: true,
      email: 'me@example.com',
      connectedAt: '2026-01-01T00:00:00.000Z',
      calendars: [
        { id: 'me@example.com', summary: 'Me', primary: true, backgroundColor: '#123456' },
        { id: 'team@example.com', summary: 'Team', description: 'Shared' },
      ],
    });
    const m = await server.request('GET', '/api/calendars/microsoft');
    assert.deepEqual(m.body.data, {
      connected: true,
      email: 'me@contoso.example',
      connectedAt: null,
      calendars: [{ id: 'cal-1', summary: 'Calendar', primary: true, backgroundColor: '#ff0000' }],
    });
    const tokenCall = fixtures.requests.find((r) => r.url === '/google/token');
    const form = new URLSearchParams(tokenCall?.body ?? '');
    assert.deepEqual(
      [form.get('grant_type'), form.get('client_id'), form.get('client_secret'), form.get('refresh_token')],
      ['refresh_token', 'g-client', 'g-secret', 'refresh-g'],
    );
  });

  it('GET /api/calendars/events merges every source, sorted, with per-source counts', async () => {
    const start = new Date(at(-1, 0)).toISOString();
    const end = new Date(at(30, 0)).toISOString();
    const res = await server.request('GET', `/api/calendars/events?start=${start}&end=${end}`);
    assert.equal(res.status, 200, res.text);
    const { events, total, sources } = res.body.data;
    assert.deepEqual(
      events.map((e: { title: string; provider: string; start: string }) => [e.provider, e.title, e.start]),
      [
        ['google', 'Google meeting', new Date(at(1, 13)).toISOString()],
        ['ics', 'Dentist', new Date(at(2, 9)).toISOString()],
        ['microsoft', 'Outlook review', new Date(at(3, 10)).toISOString()],
        ['ics', 'Team sync (moved)', new Date(at(8, 11)).toISOString()],
        ['ics', 'Team sync', new Date(at(14, 15)).toISOString()],
      ],
    );
    assert.equal(total, 5);
    assert.deepEqual(sources, { google: 1, ics: 3, microsoft: 1 });
    const dentist = events.find((e: { title: string }) => e.title === 'Dentist');
    assert.deepEqual(dentist, {
      id: 'ics_feed-single',
      subscriptionId: 'ics_feed',
      title: 'Dentist',
      start: new Date(at(2, 9)).toISOString(),
      end: new Date(at(2, 10)).toISOString(),
      allDay: false,
      location: 'Clinic',
      provider: 'ics',
    });
    const moved = events.find((e: { title: string }) => e.title === 'Team sync (moved)');
    assert.equal(moved.recurringEventId, 'ics_feed-weekly');
    const outlook = events.find((e: { provider: string }) => e.provider === 'microsoft');
    assert.deepEqual(
      [outlook.subscriptionId, outlook.description, outlook.location],
      ['microsoft-default', 'Agenda', 'Room 7'],
    );
  });

  it('includes all-day events from the vault file and the providers without a window', async () => {
    const res = await server.request('GET', '/api/calendars/events');
    const titles = res.body.data.events.map((e: { title: string }) => e.title);
    assert.ok(titles.includes('Offsite'), titles.join());
    assert.ok(titles.includes('Holiday'));
    const offsite = res.body.data.events.find((e: { title: string }) => e.title === 'Offsite');
    assert.deepEqual([offsite.start, offsite.end, offsite.allDay], ['2030-01-02', '2030-01-03', true]);
    // The first weekly occurrence is last week: only a window that reaches back shows it.
    assert.ok(titles.filter((t: string) => t === 'Team sync').length === 2);
  });

  it('reports fetch and parse failures per subscription without failing', async () => {
    const res = await server.request('GET', '/api/calendars/subscriptions');
    assert.equal(res.status, 200);
    const byId = Object.fromEntries(
      res.body.data.subscriptions.map((s: { id: string }) => [s.id, s]),
    ) as Record<
      string,
      {
        lastFetched: string | null;
        lastError: string | null;
        lastWarning: string | null;
        type: string;
        filePath?: string;
      }
    >;
    assert.match(byId.ics_feed?.lastFetched ?? '', /^\d{4}-\d{2}-\d{2}T/);
    assert.equal(byId.ics_feed?.lastError, null);
    // Its one unreadable event is left out, and said so in its status and the log.
    assert.match(
      byId.ics_feed?.lastWarning ?? '',
      /^1 event could not be read and was left out: event "[^"]+": invalid frequency "SOMETIMES"/,
    );
    assert.ok(server.stderr().includes('ICS subscription: events left out'));
    assert.equal(byId.ics_local?.lastWarning, null);
    assert.equal(byId.ics_local?.type, 'local');
    assert.equal(byId.ics_local?.filePath, 'Calendars/local.ics');
    assert.equal(byId.ics_broken?.lastError, 'Invalid ICS format');
    assert.equal(byId.ics_broken?.lastFetched, null);
    assert.equal(byId.ics_missing?.lastError, 'Failed to fetch calendar: HTTP 404 Not Found');
    assert.match(
      byId.ics_metadata?.lastError ?? '',
      /^Failed to fetch calendar: Refused by the calendar feed address rules: 169\.254\.169\.254 is a link-local address/,
    );
    assert.equal(byId.ics_off?.lastFetched, null, 'disabled subscriptions are not fetched');
  });

  it('caches parsed feeds in the data dir', async () => {
    const files = await waitFor(async () => {
      const names = await readdir(path.join(data.dir, 'calendar-cache')).catch(() => [] as string[]);
      return names.filter((n) => n.endsWith('.json')).length >= 2 ? names : undefined;
    });
    assert.ok((files ?? []).length >= 2);
  });

  it('serves a fresh feed from the cache without fetching it again', async () => {
    const before = fixtures.requests.filter((r) => r.url === '/feed.ics').length;
    await server.request('GET', '/api/calendars/events');
    await server.request('GET', '/api/calendars/events');
    assert.equal(fixtures.requests.filter((r) => r.url === '/feed.ics').length, before);
  });

  it('sends the calendar Accept header', () => {
    const feed = fixtures.requests.find((r) => r.url === '/feed.ics');
    assert.equal(feed?.headers.accept, 'text/calendar,*/*;q=0.1');
  });
});

describe('calendar routes without configuration', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ startTimeoutMs: 60_000 });
  });
  after(() => server?.cleanup());

  it('reports disconnected providers and no events', async () => {
    const overview = await server.request('GET', '/api/calendars');
    assert.deepEqual(overview.body, {
      success: true,
      data: {
        providers: [
          { id: 'google', name: 'Google Calendar', connected: false },
          { id: 'microsoft', name: 'Microsoft Calendar', connected: false },
        ],
        subscriptions: { total: 0, enabled: 0 },
      },
    });
    for (const p of ['google', 'microsoft']) {
      const res = await server.request('GET', `/api/calendars/${p}`);
      assert.deepEqual(res.body, { success: true, data: { connected: false } });
    }
    const subs = await server.request('GET', '/api/calendars/subscriptions');
    assert.deepEqual(subs.body, { success: true, data: { subscriptions: [] } });
    const events = await server.request('GET', '/api/calendars/events?start=nonsense');
    assert.deepEqual(events.body, { success: true, data: { events: [], total: 0, sources: {} } });
  });
});

describe('calendar provider failures', () => {
  let server: TestServer;
  let fixtures: FixtureServer;
  let data: { dir: string; cleanup: () => Promise<void> };
  before(async () => {
    fixtures = await startFixtureServer();
    fixtures.routes.set('/token', () => ({ status: 400, body: { error: 'invalid_grant' } }));
    data = await tempDir('taskdown-data-');
    await writeFile(
      path.join(data.dir, 'settings.json'),
      JSON.stringify({
        version: 1,
        calendarProviders: {
          google: {
            clientId: 'c',
            clientSecret: 's',
            refreshToken: 'revoked',
            apiBaseUrl: `${fixtures.url}/api`,
            tokenUrl: `${fixtures.url}/token`,
          },
        },
        icsSubscriptions: [
          {
            id: 'ics_down',
            name: 'Down',
            url: 'http://127.0.0.1:9/feed.ics',
            color: '#000',
            enabled: true,
            refreshInterval: 60,
          },
        ],
      }),
    );
    server = await startTestServer({ startTimeoutMs: 60_000, dataDir: data.dir });
  });
  // Each step runs even when startup failed part-way, so no process or listener is left behind.
  after(async () => {
    await server?.cleanup();
    await data?.cleanup();
    await fixtures?.close();
  });

  it('answers 503 for the provider status and still serves events', async () => {
    const status = await server.request('GET', '/api/calendars/google');
    assert.deepEqual(
      [status.status, status.body],
      [503, { success: false, error: 'OAuth token refresh failed: HTTP 400 (invalid_grant)' }],
    );
    const events = await server.request('GET', '/api/calendars/events');
    assert.deepEqual([events.status, events.body.data.total], [200, 0]);
    const overview = await server.request('GET', '/api/calendars');
    assert.deepEqual(overview.body.data.providers[0], {
      id: 'google',
      name: 'Google Calendar',
      connected: true,
    });
    const subs = await server.request('GET', '/api/calendars/subscriptions');
    assert.match(subs.body.data.subscriptions[0].lastError, /^Failed to fetch calendar: /);
  });
});
