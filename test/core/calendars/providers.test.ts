/** Google and Microsoft clients against provider-shaped local APIs: OAuth caching, 401 retry, paging. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GoogleCalendarClient } from '../../../src/core/calendars/google.js';
import { MicrosoftCalendarClient } from '../../../src/core/calendars/microsoft.js';
import type { ProviderConfig } from '../../../src/core/calendars/types.js';
import { createHttpClient } from '../../../src/core/net/http-client.js';
import { startFixtureServer, type FixtureServer } from '../../helpers/calendar-fixtures.js';
import { ManualClock } from '../../helpers/manual-clock.js';

describe('calendar provider clients', () => {
  let fx: FixtureServer;
  let issued = 0;
  const http = createHttpClient();
  before(async () => {
    fx = await startFixtureServer();
    fx.routes.set('/token', () => ({ body: { access_token: `t${++issued}`, expires_in: 3600 } }));
  });
  after(async () => {
    await http.close();
    await fx.close();
  });

  const config = (prefix: string): ProviderConfig => ({
    clientId: 'c',
    clientSecret: 's',
    refreshToken: 'r',
    tokenUrl: `${fx.url}/token`,
    apiBaseUrl: `${fx.url}/${prefix}`,
  });
  const window = { start: new Date('2026-01-01T00:00:00Z'), end: new Date('2026-02-01T00:00:00Z') };

  it('Google: reuses the access token until it nears expiry, retries once on 401, follows pages', async () => {
    const clock = new ManualClock();
    const google = new GoogleCalendarClient(clock, http);
    let rejectNext = false;
    fx.routes.set('/g/users/me/calendarList', (req) => {
      if (rejectNext) {
        rejectNext = false;
        return { status: 401, body: {} };
      }
      return req.url.includes('pageToken=p2')
        ? { body: { items: [{ id: 'b', summary: 'B' }] } }
        : { body: { items: [{ id: 'me@x', summary: 'Me', primary: true }], nextPageToken: 'p2' } };
    });
    issued = 0;
    const first = await google.status(config('g'));
    assert.deepEqual(
      first.calendars.map((c) => c.id),
      ['me@x', 'b'],
    );
    assert.equal(first.email, 'me@x');
    await google.status(config('g'));
    assert.equal(issued, 1, 'token cached');
    rejectNext = true;
    await google.status(config('g'));
    assert.equal(issued, 2, 'a 401 forces a new token');
    await clock.advance(3600_000);
    await google.status(config('g'));
    assert.equal(issued, 3, 'an expired token is renewed');
    const auth = fx.requests.filter((r) => r.url.startsWith('/g/')).at(-1)?.headers.authorization;
    assert.equal(auth, 'Bearer t3');
  });

  it('Google: maps timed, all-day and cancelled events of each configured calendar', async () => {
    fx.routes.set('/g/calendars/work/events', (req) => {
      const q = new URL(req.url, 'http://x').searchParams;
      assert.equal(q.get('singleEvents'), 'true');
      assert.equal(q.get('timeMin'), window.start.toISOString());
      return {
        body: {
          items: [
            {
              id: 'a',
              summary: 'A',
              start: { dateTime: '2026-01-05T10:00:00+01:00' },
              end: { dateTime: '2026-01-05T11:00:00+01:00' },
            },
            {
              id: 'b',
              start: { date: '2026-01-06' },
              end: { date: '2026-01-07' },
              recurringEventId: 'series',
            },
            { id: 'c', status: 'cancelled', start: { date: '2026-01-06' } },
          ],
        },
      };
    });
    const events = await new GoogleCalendarClient(new ManualClock(), http).events(
      { ...config('g'), calendarIds: ['work'] },
      window,
    );
    assert.deepEqual(events, [
      {
        id: 'a',
        subscriptionId: 'google-work',
        title: 'A',
        start: '2026-01-05T09:00:00.000Z',
        end: '2026-01-05T10:00:00.000Z',
        allDay: false,
      },
      {
        id: 'b',
        subscriptionId: 'google-work',
        title: 'Untitled Event',
        start: '2026-01-06',
        end: '2026-01-07',
        allDay: true,
        recurringEventId: 'series',
      },
    ]);
  });

  it('Microsoft: asks for UTC, follows nextLink and maps all-day events', async () => {
    fx.routes.set('/m/me/calendarView', (req) => {
      assert.equal(req.headers.prefer, 'outlook.timezone="UTC"');
      return {
        body: {
          value: [
            {
              id: 'x',
              subject: 'X',
              start: { dateTime: '2026-01-05T10:00:00.0000000' },
              end: { dateTime: '2026-01-05T11:00:00.0000000' },
            },
          ],
          '@odata.nextLink': `${fx.url}/m/next`,
        },
      };
    });
    fx.routes.set('/m/next', () => ({
      body: {
        value: [
          {
            id: 'y',
            subject: 'Y',
            isAllDay: true,
            start: { dateTime: '2026-01-06T00:00:00.0000000' },
            end: { dateTime: '2026-01-07T00:00:00.0000000' },
          },
          { id: 'z', subject: 'Z', isCancelled: true, start: { dateTime: '2026-01-06T00:00:00.0000000' } },
        ],
      },
    }));
    const events = await new MicrosoftCalendarClient(new ManualClock(), http).events(config('m'), window);
    assert.deepEqual(
      events.map((e) => [e.id, e.subscriptionId, e.start, e.end, e.allDay]),
      [
        ['x', 'microsoft-default', '2026-01-05T10:00:00.000Z', '2026-01-05T11:00:00.000Z', false],
        ['y', 'microsoft-default', '2026-01-06', '2026-01-07', true],
      ],
    );
    const tokenForm = new URLSearchParams(fx.requests.filter((r) => r.url === '/token').at(-1)?.body ?? '');
    assert.match(tokenForm.get('scope') ?? '', /Calendars\.Read/);
  });
});
