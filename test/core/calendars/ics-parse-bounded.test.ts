/**
 * A calendar feed is read on a thread of its own with a time limit (src/core/calendars/
 * ics-parse-bounded.ts): the same events as on the main thread, and a rule ical.js never finishes
 * expanding is given up while the main thread goes on.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseIcsBounded, READ_STOPPED } from '../../../src/core/calendars/ics-parse-bounded.js';
import { INVALID_ICS, parseIcs } from '../../../src/core/calendars/ics-parser.js';

const feed = (...events: string[][]): string =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN', ...events.flat(), 'END:VCALENDAR', ''].join(
    '\r\n',
  );
const event = (uid: string, ...lines: string[]): string[] => [
  'BEGIN:VEVENT',
  `UID:${uid}`,
  'SUMMARY:Event',
  ...lines,
  'END:VEVENT',
];
const options = { subscriptionId: 'sub', now: Date.UTC(2026, 0, 15) };

describe('reading a feed on a thread', () => {
  it('gives the events the parser gives', async () => {
    const source = feed(
      event('one', 'DTSTART:20260120T090000Z', 'DTEND:20260120T100000Z'),
      event('weekly', 'DTSTART:20260105T090000Z', 'RRULE:FREQ=WEEKLY;COUNT=5'),
    );
    const { events, skipped } = await parseIcsBounded(source, options);
    assert.equal(events.length, 6);
    assert.equal(skipped, 0);
    assert.deepEqual(events, parseIcs(source, options));
  });

  it('says how many events it left out, and why the first one', async () => {
    const source = feed(
      event('one', 'DTSTART:20260120T090000Z', 'DTEND:20260120T100000Z'),
      event('bad', 'DTSTART:garbage'),
    );
    const parsed = await parseIcsBounded(source, options);
    assert.deepEqual(
      parsed.events.map((e) => e.id),
      ['sub-one'],
    );
    assert.equal(parsed.skipped, 1);
    assert.match(parsed.firstError ?? '', /DTSTART is not a real date-time/);
  });

  it('says what is wrong with a source that is no calendar', async () => {
    await assert.rejects(parseIcsBounded('not a calendar', options), { message: INVALID_ICS });
  });

  it('gives up a rule that never ends within its time, the main thread answering meanwhile', async () => {
    // No 31 February: ical.js looks for the next one in a single call that does not return.
    const source = feed(
      event('never', 'DTSTART:20260101T090000Z', 'RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=31'),
    );
    let last = performance.now();
    let longestGap = 0;
    const ticks = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
    }, 20);
    try {
      const started = performance.now();
      await assert.rejects(parseIcsBounded(source, options, { timeMs: 1_000 }), {
        message: 'Reading the calendar took over 1 s (a recurrence rule without end?); given up',
      });
      assert.ok(performance.now() - started < 5_000, 'given up at its limit');
      assert.ok(longestGap < 500, `the main thread waited ${longestGap.toFixed(0)} ms`);
    } finally {
      clearInterval(ticks);
    }
  });

  it('gives the read up at once when its signal aborts, or before it starts', async () => {
    const source = feed(
      event('never', 'DTSTART:20260101T090000Z', 'RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=31'),
    );
    const stop = new AbortController();
    const started = performance.now();
    const read = assert.rejects(parseIcsBounded(source, options, { signal: stop.signal }), {
      message: READ_STOPPED,
    });
    setTimeout(() => stop.abort(), 200);
    await read;
    assert.ok(performance.now() - started < 2_000, 'given up when the signal aborted');
    await assert.rejects(parseIcsBounded(source, options, { signal: stop.signal }), {
      message: READ_STOPPED,
    });
  });
});
