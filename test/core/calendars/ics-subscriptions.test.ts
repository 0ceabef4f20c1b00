/** ICS subscription management, fetching, freshness and refresh timers (ManualClock). */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { IcsSubscriptions } from '../../../src/core/calendars/ics-subscriptions.js';
import { SubscriptionCache } from '../../../src/core/calendars/subscription-cache.js';
import { silentLogger } from '../../../src/core/logger.js';
import { createHttpClient } from '../../../src/core/net/http-client.js';
import { SettingsStore } from '../../../src/core/state/settings.js';
import {
  icsCalendar,
  icsEvent,
  icsUtc,
  startFixtureServer,
  type FixtureServer,
} from '../../helpers/calendar-fixtures.js';
import { ManualClock } from '../../helpers/manual-clock.js';
import { tempDir } from '../../helpers/temp.js';

const MIN = 60_000;

describe('IcsSubscriptions', () => {
  let fixtures: FixtureServer;
  let clock: ManualClock;
  let vault: { dir: string; cleanup: () => Promise<void> };
  let data: { dir: string; cleanup: () => Promise<void> };
  let subs: IcsSubscriptions;
  let settings: SettingsStore;
  let feedTitle = 'First';
  const http = createHttpClient();

  const fetches = (): number => fixtures.requests.filter((r) => r.url === '/feed.ics').length;
  const make = (): IcsSubscriptions =>
    new IcsSubscriptions({
      settings,
      cache: new SubscriptionCache(path.join(data.dir, 'calendar-cache')),
      clock,
      log: silentLogger,
      vault: { root: vault.dir, dataDir: data.dir },
      http,
    });

  before(async () => {
    fixtures = await startFixtureServer();
    fixtures.routes.set('/feed.ics', () => ({
      body: icsCalendar([
        icsEvent({ UID: 'e1', SUMMARY: feedTitle, DTSTART: icsUtc(clock.now() + 3_600_000) }),
      ]),
    }));
  });
  after(async () => {
    await http.close();
    await fixtures?.close();
  });

  beforeEach(async () => {
    clock = new ManualClock(Date.UTC(2026, 5, 1, 8));
    vault = await tempDir('taskdown-vault-');
    data = await tempDir('taskdown-data-');
    settings = await SettingsStore.open(data.dir);
    subs = make();
    await subs.start();
    feedTitle = 'First';
    fixtures.requests.length = 0;
  });
  afterEach(async () => {
    await subs.stop();
    await vault.cleanup();
    await data.cleanup();
  });

  it('validates new subscriptions with clear messages and changes nothing on error', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [null, /must be a JSON object/],
      [{ url: 'https://x/a.ics' }, /name is required/],
      [{ name: 'A' }, /either url .* or filePath/],
      [{ name: 'A', url: 'https://x/a.ics', filePath: 'a.ics' }, /either url/],
      [{ name: 'A', url: 'ftp://x/a.ics' }, /http, https or webcal/],
      [{ name: 'A', url: 'not a url' }, /http, https or webcal/],
      [{ name: 'A', filePath: '../outside.ics' }, /inside the vault/],
      [{ name: 'A', filePath: '.obsidian/x.ics' }, /inside the vault/],
      [{ name: 'A', filePath: 'notes.md' }, /\.ics file/],
      [{ name: 'A', url: 'https://x/a.ics', refreshInterval: 0 }, /refreshInterval/],
      [{ name: 'A', url: 'https://x/a.ics', enabled: 'yes' }, /enabled must be a boolean/],
      [{ name: 'A', url: 'https://x/a.ics', type: 'local' }, /type must be/],
      [{ name: 'A', url: 'https://x/a.ics', colour: 'red' }, /Unknown subscription field "colour"/],
    ];
    for (const [input, message] of cases) {
      await assert.rejects(subs.add(input), (err: Error & { code?: string }) => {
        assert.equal(err.code, 'INVALID', JSON.stringify(input));
        assert.match(err.message, message, JSON.stringify(input));
        return true;
      });
    }
    assert.deepEqual(await subs.list(), []);
  });

  it('says in lastWarning which events it left out, until a fetch reads them all', async () => {
    let broken = true;
    fixtures.routes.set('/partly.ics', () => ({
      body: icsCalendar([
        icsEvent({ UID: 'good', SUMMARY: 'Good', DTSTART: icsUtc(clock.now() + 3_600_000) }),
        ...(broken
          ? [
              icsEvent({ UID: 'b1', SUMMARY: 'Bad one', DTSTART: 'never' }),
              icsEvent({ UID: 'b2', SUMMARY: 'Bad two', DTSTART: 'never' }),
            ]
          : []),
      ]),
    }));
    const added = await subs.add({ name: 'Partly', url: `${fixtures.url}/partly.ics`, enabled: false });
    const partly = await subs.refresh(added.id);
    assert.equal(partly.lastError, null);
    assert.match(
      partly.lastWarning ?? '',
      /^2 events could not be read and were left out; the first: event "Bad one": DTSTART is not a real date-time/,
    );
    broken = false;
    await clock.advance(MIN);
    assert.equal((await subs.refresh(added.id)).lastWarning, null);
  });

  it('says in lastWarning which series it cut short, with events it left out', async () => {
    // Hourly since 2015: more than the 50,000 occurrences a series is expanded to.
    fixtures.routes.set('/long.ics', () => ({
      body: icsCalendar([
        icsEvent({ UID: 'bad', SUMMARY: 'Bad one', DTSTART: 'never' }),
        icsEvent({ UID: 'standup', SUMMARY: 'Standup', DTSTART: '20150101T000000Z', RRULE: 'FREQ=HOURLY' }),
      ]),
    }));
    const after = new Date(Date.UTC(2015, 0, 1) + 49_999 * 3_600_000).toISOString();
    const added = await subs.add({ name: 'Long', url: `${fixtures.url}/long.ics`, enabled: false });
    const long = await subs.refresh(added.id);
    assert.equal(
      long.lastWarning,
      '1 event could not be read and was left out: event "Bad one": DTSTART is not a real date-time ' +
        '(YYYYMMDDTHHMMSS); 1 recurring event has more occurrences than are expanded and was cut short: ' +
        `event "Standup" after ${after}`,
    );
  });

  it('adds with defaults and an ics_ id, fetches in the background and reports lastFetched', async () => {
    const added = await subs.add({ name: ' Team ', url: `${fixtures.url}/feed.ics` });
    assert.match(added.id, /^ics_[a-z0-9]+$/);
    assert.deepEqual(
      { ...added, id: undefined },
      {
        id: undefined,
        name: 'Team',
        type: 'remote',
        url: `${fixtures.url}/feed.ics`,
        color: '#6495ED',
        enabled: true,
        refreshInterval: 60,
        lastFetched: null,
        lastError: null,
        lastWarning: null,
      },
    );
    const refreshed = await subs.refresh(added.id);
    assert.equal(refreshed.lastFetched, new Date(clock.now()).toISOString());
    assert.equal(refreshed.lastError, null);
    const events = await subs.events();
    assert.deepEqual(
      events.map((e) => [e.id, e.title]),
      [[`${added.id}-e1`, 'First']],
    );
  });

  it('accepts a vault file given as an absolute path inside the vault', async () => {
    await writeFile(
      path.join(vault.dir, 'cal.ics'),
      icsCalendar([icsEvent({ UID: 'x', SUMMARY: 'Local', 'DTSTART;VALUE=DATE': '20260602' })]),
    );
    const added = await subs.add({ name: 'L', filePath: path.join(vault.dir, 'cal.ics') });
    assert.equal(added.filePath, 'cal.ics');
    assert.equal(added.type, 'local');
    assert.deepEqual(
      (await subs.events()).map((e) => e.title),
      ['Local'],
    );
    // An edit of the file is picked up on the next read, without waiting for the interval.
    await writeFile(
      path.join(vault.dir, 'cal.ics'),
      icsCalendar([icsEvent({ UID: 'x', SUMMARY: 'Local edited', 'DTSTART;VALUE=DATE': '20260603' })]),
    );
    const later = new Date(Date.now() + 5000);
    const { utimes } = await import('node:fs/promises');
    await utimes(path.join(vault.dir, 'cal.ics'), later, later);
    assert.deepEqual(
      (await subs.events()).map((e) => e.title),
      ['Local edited'],
    );
  });

  it('refreshes on the subscription interval with the injected clock', async () => {
    const added = await subs.add({ name: 'T', url: `${fixtures.url}/feed.ics`, refreshInterval: 5 });
    await subs.refresh(added.id);
    const initial = fetches();
    feedTitle = 'Second';
    await clock.advance(4 * MIN);
    assert.equal(fetches(), initial, 'not before the interval');
    await clock.advance(1 * MIN);
    await waitUntil(() => fetches() === initial + 1);
    await waitUntil(async () => (await subs.events()).some((e) => e.title === 'Second'));
    await clock.advance(5 * MIN);
    await waitUntil(() => fetches() === initial + 2);
  });

  it('serves a stale copy within 5 minutes of expiry and drops it after that', async () => {
    fixtures.routes.set('/flaky.ics', () => ({
      body: icsCalendar([icsEvent({ UID: 'f', SUMMARY: 'Flaky', DTSTART: '20260601T100000Z' })]),
    }));
    const added = await subs.add({ name: 'F', url: `${fixtures.url}/flaky.ics`, refreshInterval: 10 });
    await subs.refresh(added.id);
    await subs.stop(); // no timers: only the request-time rules below
    subs = make();
    fixtures.routes.set('/flaky.ics', () => ({ status: 500, body: 'down' }));
    await clock.advance(12 * MIN);
    assert.deepEqual(
      (await subs.events()).map((e) => e.title),
      ['Flaky'],
      'stale but within the grace period',
    );
    await waitUntil(
      async () =>
        (await subs.get(added.id)).lastError === 'Failed to fetch calendar: HTTP 500 Internal Server Error',
    );
    await clock.advance(10 * MIN);
    assert.deepEqual(await subs.events(), [], 'expired beyond the grace period and the refetch failed');
    const status = await subs.get(added.id);
    assert.equal(status.lastFetched, new Date(Date.UTC(2026, 5, 1, 8)).toISOString(), 'last good fetch kept');
  });

  it('updates and removes subscriptions', async () => {
    const added = await subs.add({ name: 'T', url: `${fixtures.url}/feed.ics` });
    await subs.refresh(added.id);
    const updated = await subs.update(added.id, { name: 'Renamed', enabled: false, refreshInterval: 15 });
    assert.deepEqual([updated.name, updated.enabled, updated.refreshInterval], ['Renamed', false, 15]);
    assert.deepEqual(await subs.events(), [], 'disabled subscriptions contribute nothing');
    await assert.rejects(subs.update(added.id, { refreshInterval: -1 }), /refreshInterval/);
    await assert.rejects(subs.update('ics_nope', { name: 'x' }), /Subscription not found/);
    await subs.remove(added.id);
    assert.deepEqual(await subs.list(), []);
    await assert.rejects(subs.remove(added.id), /Subscription not found/);
  });
});

async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
