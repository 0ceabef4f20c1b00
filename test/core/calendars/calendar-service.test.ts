/**
 * The server's stop gives up calendar work under way (CalendarService.interrupt): a feed being
 * read on its thread, a feed server that does not answer, a provider's token endpoint that does
 * not answer. The requests waiting on them fail at once with 503's code, and nothing of the
 * given-up fetch is kept as the feed's state.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { CALENDAR_STOPPING, CalendarService } from '../../../src/core/calendars/calendar-service.js';
import { silentLogger } from '../../../src/core/logger.js';
import { createHttpClient } from '../../../src/core/net/http-client.js';
import { SettingsStore } from '../../../src/core/state/settings.js';
import { ENDLESS_RULE_ICS } from '../../helpers/calendar-fixtures.js';
import { ManualClock } from '../../helpers/manual-clock.js';
import { tempDir } from '../../helpers/temp.js';

const stopping = { code: 'UNAVAILABLE', message: CALENDAR_STOPPING };

describe('CalendarService.interrupt', () => {
  /** Takes requests and never answers them. */
  let silent: Server;
  let silentUrl: string;
  const http = createHttpClient();
  let vault: { dir: string; cleanup: () => Promise<void> };
  let data: { dir: string; cleanup: () => Promise<void> };
  let settings: SettingsStore;
  let calendars: CalendarService;

  before(async () => {
    silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  });
  after(async () => {
    await http.close();
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
  });
  beforeEach(async () => {
    vault = await tempDir('taskdown-vault-');
    data = await tempDir('taskdown-data-');
    settings = await SettingsStore.open(data.dir);
    calendars = new CalendarService({
      settings,
      clock: new ManualClock(Date.UTC(2026, 0, 15)),
      log: silentLogger,
      vault: { root: vault.dir, dataDir: data.dir },
      dataDir: data.dir,
      http,
    });
    await calendars.start();
  });
  afterEach(async () => {
    await calendars.stop();
    await vault.cleanup();
    await data.cleanup();
  });

  /** Runs `request`, interrupts after 300 ms, and gives how long the request took to fail. */
  const interrupted = async (request: Promise<unknown>): Promise<number> => {
    const started = performance.now();
    const pending = assert.rejects(request, stopping);
    await new Promise((resolve) => setTimeout(resolve, 300));
    calendars.interrupt();
    await pending;
    return performance.now() - started;
  };

  const subscribe = async (source: { filePath: string } | { url: string }): Promise<string> =>
    (await calendars.addSubscription({ name: 'Feed', enabled: false, ...source })).id;

  it('gives up a feed being read on its thread, keeping no error for the feed', async () => {
    await writeFile(path.join(vault.dir, 'never.ics'), ENDLESS_RULE_ICS);
    const id = await subscribe({ filePath: 'never.ics' });
    const took = await interrupted(calendars.refresh(id));
    assert.ok(took < 2_000, `the refresh failed after ${took.toFixed(0)} ms`);
    const [status] = await calendars.listSubscriptions();
    assert.deepEqual([status?.lastFetched, status?.lastError], [null, null]);
  });

  it('gives up a feed server that does not answer', async () => {
    const id = await subscribe({ url: `${silentUrl}/feed.ics` });
    const took = await interrupted(calendars.refresh(id));
    assert.ok(took < 2_000, `the refresh failed after ${took.toFixed(0)} ms`);
  });

  it('gives up a provider request, and the events request waiting on it', async () => {
    await settings.update((draft) => {
      draft.calendarProviders.google = {
        clientId: 'c',
        clientSecret: 's',
        refreshToken: 'r',
        tokenUrl: `${silentUrl}/token`,
        apiBaseUrl: `${silentUrl}/g`,
      };
    });
    const status = await interrupted(calendars.provider('google'));
    assert.ok(status < 2_000, `the status request failed after ${status.toFixed(0)} ms`);
    // Once interrupted, what still asks is refused at once.
    await assert.rejects(calendars.events({}), stopping);
  });
});
