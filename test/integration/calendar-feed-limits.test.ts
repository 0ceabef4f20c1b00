/**
 * A calendar feed that would take the server's time or memory is given up, the server answering
 * meanwhile (built server; src/core/calendars/ics-parse-bounded.ts): a recurrence rule ical.js
 * never finishes expanding, and a vault `.ics` file over the feeds' 20 MB cap.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server-process.js';

const NEVER = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//test//EN',
  'BEGIN:VEVENT',
  'UID:never',
  'SUMMARY:No 31 February',
  'DTSTART:20260101T090000Z',
  'RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=31',
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n');

describe('calendar feeds over their limits (real server)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ files: { 'Calendars/never.ics': NEVER } });
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

  it('gives up a rule without end after 10 s, answering health all along', async () => {
    const id = await subscribe('Calendars/never.ics');
    let longest = 0;
    let refreshing = true;
    const refreshed = server
      .request('POST', `/settings-api/calendars/subscriptions/${id}/refresh`)
      .finally(() => (refreshing = false));
    while (refreshing) {
      const started = performance.now();
      assert.equal((await server.request('GET', '/api/health')).status, 200);
      longest = Math.max(longest, performance.now() - started);
      await new Promise((r) => setTimeout(r, 200));
    }
    const { subscription } = (await refreshed).body.data;
    assert.equal(
      subscription.lastError,
      'Reading the calendar took over 10 s (a recurrence rule without end?); given up',
    );
    assert.ok(longest < 1_000, `health waited ${longest.toFixed(0)} ms`);
  });

  it('refuses a vault file over 20 MB without reading it', async () => {
    await writeFile(path.join(server.vault, 'Calendars/huge.ics'), Buffer.alloc(21 * 1024 * 1024, 0x20));
    const id = await subscribe('Calendars/huge.ics');
    const refreshed = await server.request('POST', `/settings-api/calendars/subscriptions/${id}/refresh`);
    assert.equal(refreshed.body.data.subscription.lastError, 'Calendar feed is too large');
  });
});
