/**
 * A calendar feed that would take the server's time or memory does not hold the server (built
 * server; src/core/calendars/ics-parse-bounded.ts): a vault `.ics` file over the feeds' 20 MB cap
 * is refused unread, and a recurrence rule ical.js never finishes expanding is read on a thread
 * while the server answers and stops.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ENDLESS_RULE_ICS } from '../helpers/calendar-fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server-process.js';

describe('calendar feeds over their limits (real server)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ files: { 'Calendars/never.ics': ENDLESS_RULE_ICS } });
  });
  after(() => server.cleanup());

  const subscribe = async (filePath: string): Promise<string> => {
    const added = await server.request('POST', '/settings-api/calendars/subscriptions', {
      name: filePath,
      type: 'local',
      filePath,
      enabled: true,
      refreshInterval: 60,
    });
    assert.equal(added.status, 201, added.text);
    return added.body.data.subscription.id as string;
  };

  it('refuses a vault file over 20 MB without reading it', async () => {
    await writeFile(path.join(server.vault, 'Calendars/huge.ics'), Buffer.alloc(21 * 1024 * 1024, 0x20));
    const id = await subscribe('Calendars/huge.ics');
    const refreshed = await server.request('POST', `/settings-api/calendars/subscriptions/${id}/refresh`);
    assert.equal(refreshed.body.data.subscription.lastError, 'Calendar feed is too large');
  });

  // The 10 s limit itself and its error are tested on the parse alone with a 1 s limit
  // (test/core/calendars/ics-parse-bounded.test.ts): waiting for it here burns 10 s of a core.
  it('reads a rule without end on a thread: health answers meanwhile, and a stop gives it up at once (503)', async () => {
    const id = await subscribe('Calendars/never.ics');
    let refreshing = true;
    const refreshed = server
      .request('POST', `/settings-api/calendars/subscriptions/${id}/refresh`)
      .finally(() => (refreshing = false));
    let longest = 0;
    const watchUntil = performance.now() + 2_000;
    while (performance.now() < watchUntil) {
      const started = performance.now();
      assert.equal((await server.request('GET', '/api/health')).status, 200);
      longest = Math.max(longest, performance.now() - started);
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.ok(refreshing, 'the endless rule was answered before its time limit');
    assert.ok(longest < 1_000, `health waited ${longest.toFixed(0)} ms`);
    const stopping = performance.now();
    assert.equal(await server.stop('SIGTERM'), 0);
    const stopMs = performance.now() - stopping;
    assert.ok(stopMs < 3_000, `the stop waited ${stopMs.toFixed(0)} ms for the feed's thread`);
    const answer = await refreshed;
    assert.equal(answer.status, 503, answer.text);
    assert.match(answer.text, /Taskdown is stopping: the calendar request was given up/);
  });
});
