/** ICS parsing: zones, recurrence expansion, EXDATE, RECURRENCE-ID overrides, skips. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { INVALID_ICS, parseIcs, parseIcsDetailed } from '../../../src/core/calendars/ics-parser.js';
import type { CalendarEvent } from '../../../src/core/calendars/types.js';

const ics = readFileSync(new URL('../../fixtures/ics/recurring.ics', import.meta.url), 'utf8');
const now = Date.UTC(2026, 0, 1);
const events = parseIcs(ics, { subscriptionId: 'sub1', now });
const byTitle = (t: string) => events.filter((e) => e.title === t);

describe('parseIcs', () => {
  it('leaves out an event it cannot read and keeps all the others, zones and overrides included', () => {
    const broken = (lines: string[]): string =>
      ics.replace(
        /END:VCALENDAR\s*$/,
        `${['BEGIN:VEVENT', ...lines, 'END:VEVENT'].join('\r\n')}\r\nEND:VCALENDAR\r\n`,
      );
    // A DTSTART that is no date (read when the event is), and an RRULE with no known FREQ (read
    // with the whole calendar, which then is read event by event).
    // The first error names the event by its SUMMARY, else its UID.
    for (const [bad, firstError] of [
      [
        ['UID:bad-date', 'SUMMARY:Bad date', 'DTSTART:2026-13-45T99'],
        /^event "Bad date": DTSTART is not a real date-time/,
      ],
      [
        ['UID:bad-rule', 'DTSTART:20260110T090000Z', 'RRULE:FREQ=SOMETIMES;COUNT=x'],
        /^event "bad-rule": invalid frequency "SOMETIMES"/,
      ],
    ] as const) {
      const source = broken([...bad]);
      assert.deepEqual(parseIcs(source, { subscriptionId: 'sub1', now }), events, bad[0]);
      const detailed = parseIcsDetailed(source, { subscriptionId: 'sub1', now });
      assert.equal(detailed.skipped, 1, bad[0]);
      assert.match(detailed.firstError ?? '', firstError, bad[0]);
    }
    assert.equal(parseIcsDetailed(ics, { subscriptionId: 'sub1', now }).skipped, 0);
  });

  it('leaves out an event with a date that is not real, instead of rolling it over to another day', () => {
    const feed = (...lines: string[]): string =>
      [
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'PRODID:-//test//EN',
        ...['BEGIN:VEVENT', 'UID:good', 'SUMMARY:Good', 'DTSTART;VALUE=DATE:20260229', 'END:VEVENT'],
        ...['BEGIN:VEVENT', 'UID:bad', 'SUMMARY:Bad', ...lines, 'END:VEVENT'],
        'END:VCALENDAR',
        '',
      ].join('\r\n');
    // 2026 is no leap year: the good event's 29 February is not real either, so it is left out too.
    const leapYear = (text: string): string => text.replace('20260229', '20280229');
    for (const [lines, error] of [
      [['DTSTART;VALUE=DATE:2026-12-26'], 'DTSTART is not a real date (YYYYMMDD)'],
      [['DTSTART;VALUE=DATE:20261327'], 'DTSTART is not a real date (YYYYMMDD)'],
      [['DTSTART:20260230T090000Z'], 'DTSTART is not a real date-time (YYYYMMDDTHHMMSS)'],
      [['DTSTART:20260210T250000Z'], 'DTSTART is not a real date-time (YYYYMMDDTHHMMSS)'],
      [
        ['DTSTART:20260210T090000Z', 'DTEND:20260210T096000Z'],
        'DTEND is not a real date-time (YYYYMMDDTHHMMSS)',
      ],
      [
        ['DTSTART:20260210T090000Z', 'RRULE:FREQ=DAILY;COUNT=3', 'EXDATE:20260211T090000Z,2026-02-12'],
        'EXDATE is not a real date-time (YYYYMMDDTHHMMSS)',
      ],
    ] as const) {
      const parsed = parseIcsDetailed(leapYear(feed(...lines)), { subscriptionId: 's', now });
      assert.deepEqual(
        parsed.events.map((e) => [e.title, e.start]),
        [['Good', '2028-02-29']],
        lines.join(' '),
      );
      assert.equal(parsed.firstError, `event "Bad": ${error}`, lines.join(' '));
    }
    const noLeapDay = parseIcsDetailed(feed('DTSTART;VALUE=DATE:20260301'), { subscriptionId: 's', now });
    assert.deepEqual(
      noLeapDay.events.map((e) => e.title),
      ['Bad'],
    );
    assert.equal(noLeapDay.firstError, 'event "Good": DTSTART is not a real date (YYYYMMDD)');
    // A leap second is a real time.
    const leapSecond = parseIcsDetailed(leapYear(feed('DTSTART:20261231T235960Z')), {
      subscriptionId: 's',
      now,
    });
    assert.equal(leapSecond.skipped, 0);
  });

  it('expands a weekly series in its VTIMEZONE, skipping EXDATE and cancelled overrides', () => {
    const standups = events.filter((e) => e.recurringEventId === 'sub1-weekly-standup');
    assert.deepEqual(
      standups.map((e) => e.start),
      [
        '2026-01-05T08:30:00.000Z',
        '2026-01-19T10:00:00.000Z', // moved by its RECURRENCE-ID override
        '2026-02-02T08:30:00.000Z',
        '2026-02-09T08:30:00.000Z',
      ],
    );
    assert.deepEqual(
      standups.map((e) => e.id),
      ['sub1-weekly-standup-0', 'sub1-weekly-standup-1', 'sub1-weekly-standup-2', 'sub1-weekly-standup-3'],
    );
    const moved = standups[1];
    assert.equal(moved?.title, 'Standup (moved)');
    assert.equal(moved?.end, '2026-01-19T10:30:00.000Z');
    assert.equal(moved?.location, 'Room 1', 'falls back to the master for fields it lacks');
    assert.equal(standups[0]?.end, '2026-01-05T08:45:00.000Z');
    assert.equal(standups[0]?.description, 'Daily sync');
  });

  it('applies daylight saving time from the VTIMEZONE rules', () => {
    assert.equal(byTitle('Summer review')[0]?.start, '2026-07-15T12:00:00.000Z');
  });

  it('maps Windows zone names to IANA zones', () => {
    assert.equal(byTitle('Windows zone')[0]?.start, '2026-03-10T13:00:00.000Z');
    // Every Windows zone CLDR knows, not only the common ones (these read as UTC before).
    const at = (tzid: string): string | undefined =>
      parseIcs(
        [
          'BEGIN:VCALENDAR',
          'BEGIN:VEVENT',
          'UID:w',
          `DTSTART;TZID="${tzid}":20260710T090000`,
          'END:VEVENT',
          'END:VCALENDAR',
        ].join('\r\n'),
        { subscriptionId: 's', now },
      )[0]?.start;
    assert.equal(at('Pakistan Standard Time'), '2026-07-10T04:00:00.000Z');
    assert.equal(at('Pacific Standard Time (Mexico)'), '2026-07-10T16:00:00.000Z');
    assert.equal(at('SA Pacific Standard Time'), '2026-07-10T14:00:00.000Z');
    assert.equal(at('Arab Standard Time'), '2026-07-10T06:00:00.000Z');
    assert.equal(at('W. Europe Standard Time'), '2026-07-10T07:00:00.000Z');
  });

  it("reads Windows display labels in their cities' zones, daylight saving time included", () => {
    const at = (tzid: string, date: string): string | undefined =>
      parseIcs(
        [
          'BEGIN:VCALENDAR',
          'BEGIN:VEVENT',
          'UID:w',
          `DTSTART;TZID="${tzid}":${date}T090000`,
          'END:VEVENT',
          'END:VCALENDAR',
        ].join('\r\n'),
        { subscriptionId: 's', now },
      )[0]?.start;
    // Read as their fixed offsets before: an hour late all summer.
    const berlin = '(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna';
    assert.equal(at(berlin, '20260710'), '2026-07-10T07:00:00.000Z');
    assert.equal(at(berlin, '20260110'), '2026-01-10T08:00:00.000Z');
    assert.equal(at('(UTC+00:00) Dublin, Edinburgh, Lisbon, London', '20260710'), '2026-07-10T08:00:00.000Z');
    assert.equal(at('(UTC-05:00) Eastern Time (US & Canada)', '20260710'), '2026-07-10T13:00:00.000Z');
    assert.equal(at('(UTC+10:00) Canberra, Melbourne, Sydney', '20260110'), '2026-01-09T22:00:00.000Z');
    // No known city, or none with the label's offset: the offset is all there is.
    assert.equal(at('(UTC-07:00) Arizona', '20260710'), '2026-07-10T16:00:00.000Z');
    assert.equal(at('(UTC+03:00) Berlin', '20260710'), '2026-07-10T06:00:00.000Z');
    assert.equal(at('(UTC) Coordinated Universal Time', '20260710'), '2026-07-10T09:00:00.000Z');
  });

  it('ends a series at its UTC UNTIL also in a zone the feed does not define', () => {
    // A TZID without its VTIMEZONE; UNTIL is the last start in UTC, as Google writes it.
    const starts = (dtstart: string, rule: string): string[] =>
      parseIcs(
        [
          'BEGIN:VCALENDAR',
          'BEGIN:VEVENT',
          'UID:u',
          dtstart,
          `RRULE:${rule}`,
          'END:VEVENT',
          'END:VCALENDAR',
        ].join('\r\n'),
        { subscriptionId: 's', now },
      ).map((e) => e.start);
    // East of UTC the last one was lost: 26 January 09:00 in Berlin is 08:00 UTC.
    assert.deepEqual(
      starts('DTSTART;TZID=Europe/Berlin:20260105T090000', 'FREQ=WEEKLY;UNTIL=20260126T080000Z'),
      [
        '2026-01-05T08:00:00.000Z',
        '2026-01-12T08:00:00.000Z',
        '2026-01-19T08:00:00.000Z',
        '2026-01-26T08:00:00.000Z',
      ],
    );
    // West of it one past the end was added: UNTIL is 19 January 20:00 in New York.
    assert.deepEqual(
      starts('DTSTART;TZID=America/New_York:20260105T210000', 'FREQ=WEEKLY;UNTIL=20260120T010000Z'),
      ['2026-01-06T02:00:00.000Z', '2026-01-13T02:00:00.000Z'],
    );
    // Across a change to summer time, and for a floating start in the calendar's zone.
    assert.deepEqual(
      starts('DTSTART;TZID=Europe/Berlin:20260323T090000', 'FREQ=WEEKLY;UNTIL=20260406T070000Z'),
      ['2026-03-23T08:00:00.000Z', '2026-03-30T07:00:00.000Z', '2026-04-06T07:00:00.000Z'],
    );
    const floating = parseIcs(
      [
        'BEGIN:VCALENDAR',
        'X-WR-TIMEZONE:Asia/Tokyo',
        'BEGIN:VEVENT',
        'UID:f',
        'DTSTART:20260105T090000',
        'RRULE:FREQ=DAILY;UNTIL=20260107T000000Z',
        'END:VEVENT',
        'END:VCALENDAR',
      ].join('\r\n'),
      { subscriptionId: 's', now },
    );
    assert.deepEqual(
      floating.map((e) => e.start),
      ['2026-01-05T00:00:00.000Z', '2026-01-06T00:00:00.000Z', '2026-01-07T00:00:00.000Z'],
    );
  });

  it("reads floating times in the calendar's X-WR-TIMEZONE, not the machine's zone", () => {
    // Chatham: +13:45 in January, +12:45 from April (no machine this runs on is there).
    const feed = (zone: string | undefined, ...event: string[]): string =>
      [
        'BEGIN:VCALENDAR',
        ...(zone === undefined ? [] : [`X-WR-TIMEZONE:${zone}`]),
        'BEGIN:VEVENT',
        ...event,
        'END:VEVENT',
        'END:VCALENDAR',
      ].join('\r\n');
    const parse = (source: string) => parseIcs(source, { subscriptionId: 's', now });
    const weekly = [
      'UID:weekly',
      'SUMMARY:Floating weekly',
      'DTSTART:20260301T090000',
      'DTEND:20260301T100000',
      'RRULE:FREQ=WEEKLY;COUNT=8',
      'EXDATE:20260315T090000',
    ];
    const instances = parse(feed('Pacific/Chatham', ...weekly));
    assert.deepEqual(
      instances.map((e) => [e.start, e.end]),
      [
        // 09:00 on 1 March in Chatham (+13:45) is 19:15 UTC the day before; 5 April is after
        // its change to +12:45. The EXDATE, floating too, is read in the same zone.
        ['2026-02-28T19:15:00.000Z', '2026-02-28T20:15:00.000Z'],
        ['2026-03-07T19:15:00.000Z', '2026-03-07T20:15:00.000Z'],
        ['2026-03-21T19:15:00.000Z', '2026-03-21T20:15:00.000Z'],
        ['2026-03-28T19:15:00.000Z', '2026-03-28T20:15:00.000Z'],
        ['2026-04-04T20:15:00.000Z', '2026-04-04T21:15:00.000Z'],
        ['2026-04-11T20:15:00.000Z', '2026-04-11T21:15:00.000Z'],
        ['2026-04-18T20:15:00.000Z', '2026-04-18T21:15:00.000Z'],
      ],
    );
    // A Windows name works too; a zone written on the value, or UTC, is kept.
    assert.equal(
      parse(feed('Tokyo Standard Time', 'UID:a', 'DTSTART:20260110T090000'))[0]?.start,
      '2026-01-10T00:00:00.000Z',
    );
    assert.equal(
      parse(feed('Pacific/Chatham', 'UID:b', 'DTSTART;TZID=Asia/Tokyo:20260110T090000'))[0]?.start,
      '2026-01-10T00:00:00.000Z',
    );
    assert.equal(
      parse(feed('Pacific/Chatham', 'UID:c', 'DTSTART:20260110T090000Z'))[0]?.start,
      '2026-01-10T09:00:00.000Z',
    );
    // All-day events stay days; a zone that does not resolve leaves the machine's zone.
    assert.equal(
      parse(feed('Pacific/Chatham', 'UID:d', 'DTSTART;VALUE=DATE:20260110'))[0]?.start,
      '2026-01-10',
    );
    assert.equal(
      parse(feed('Mars/Olympus_Mons', 'UID:e', 'DTSTART:20260110T090000'))[0]?.start,
      parse(feed(undefined, 'UID:e', 'DTSTART:20260110T090000'))[0]?.start,
    );
  });

  it('counts DTSTART as the first instance of an RDATE series, and reads RDATE periods', () => {
    const feed = (...event: string[]): CalendarEvent[] =>
      parseIcs(['BEGIN:VCALENDAR', 'BEGIN:VEVENT', ...event, 'END:VEVENT', 'END:VCALENDAR'].join('\r\n'), {
        subscriptionId: 's',
        now,
      });
    const spans = (events: CalendarEvent[]) => events.map((e) => [e.start, e.end]);
    assert.deepEqual(
      spans(
        feed(
          'UID:r',
          'DTSTART:20260110T090000Z',
          'DTEND:20260110T100000Z',
          // DTSTART listed again is one instance; a period has its own end or duration.
          'RDATE:20260110T090000Z,20260112T090000Z',
          'RDATE;VALUE=PERIOD:20260115T090000Z/20260115T120000Z,20260116T090000Z/PT30M',
        ),
      ),
      [
        ['2026-01-10T09:00:00.000Z', '2026-01-10T10:00:00.000Z'],
        ['2026-01-12T09:00:00.000Z', '2026-01-12T10:00:00.000Z'],
        ['2026-01-15T09:00:00.000Z', '2026-01-15T12:00:00.000Z'],
        ['2026-01-16T09:00:00.000Z', '2026-01-16T09:30:00.000Z'],
      ],
    );
    // An EXDATE removes DTSTART as any other instance; with an RRULE nothing changes.
    assert.deepEqual(
      spans(feed('UID:x', 'DTSTART:20260110T090000Z', 'RDATE:20260112T090000Z', 'EXDATE:20260110T090000Z')),
      [['2026-01-12T09:00:00.000Z', undefined]],
    );
    assert.deepEqual(
      spans(
        feed('UID:y', 'DTSTART:20260110T090000Z', 'RRULE:FREQ=DAILY;COUNT=2', 'RDATE:20260120T090000Z'),
      ).map(([start]) => start),
      ['2026-01-10T09:00:00.000Z', '2026-01-11T09:00:00.000Z', '2026-01-20T09:00:00.000Z'],
    );
  });

  it('moves this and every later occurrence by an override with RANGE=THISANDFUTURE', () => {
    const feed = [
      'BEGIN:VCALENDAR',
      'BEGIN:VEVENT',
      'UID:w',
      'DTSTART:20260105T100000Z',
      'DTEND:20260105T110000Z',
      'RRULE:FREQ=WEEKLY;COUNT=6',
      'SUMMARY:Standup',
      'END:VEVENT',
      // From the third occurrence on: 90 minutes later, half an hour long, renamed.
      'BEGIN:VEVENT',
      'UID:w',
      'RECURRENCE-ID;RANGE=THISANDFUTURE:20260119T100000Z',
      'DTSTART:20260119T113000Z',
      'DTEND:20260119T120000Z',
      'SUMMARY:Standup (later)',
      'END:VEVENT',
      // An override of one later occurrence still wins for that occurrence.
      'BEGIN:VEVENT',
      'UID:w',
      'RECURRENCE-ID:20260202T100000Z',
      'DTSTART:20260202T150000Z',
      'DTEND:20260202T153000Z',
      'SUMMARY:Standup (moved once)',
      'END:VEVENT',
      'END:VCALENDAR',
    ].join('\r\n');
    assert.deepEqual(
      parseIcs(feed, { subscriptionId: 's', now }).map((e) => [e.start, e.end, e.title]),
      [
        ['2026-01-05T10:00:00.000Z', '2026-01-05T11:00:00.000Z', 'Standup'],
        ['2026-01-12T10:00:00.000Z', '2026-01-12T11:00:00.000Z', 'Standup'],
        ['2026-01-19T11:30:00.000Z', '2026-01-19T12:00:00.000Z', 'Standup (later)'],
        ['2026-01-26T11:30:00.000Z', '2026-01-26T12:00:00.000Z', 'Standup (later)'],
        ['2026-02-02T15:00:00.000Z', '2026-02-02T15:30:00.000Z', 'Standup (moved once)'],
        ['2026-02-09T11:30:00.000Z', '2026-02-09T12:00:00.000Z', 'Standup (later)'],
      ],
    );
  });

  it('shows an occurrence past the horizon that an override moved before it', () => {
    const feed = [
      'BEGIN:VCALENDAR',
      'BEGIN:VEVENT',
      'UID:h',
      'DTSTART:20260105T100000Z',
      'RRULE:FREQ=WEEKLY',
      'SUMMARY:Review',
      'END:VEVENT',
      // The sixth occurrence (9 February), past a 30-day horizon, moved to 28 January.
      'BEGIN:VEVENT',
      'UID:h',
      'RECURRENCE-ID:20260209T100000Z',
      'DTSTART:20260128T150000Z',
      'SUMMARY:Review (early)',
      'END:VEVENT',
      // One moved from past the horizon to another day past it stays out.
      'BEGIN:VEVENT',
      'UID:h',
      'RECURRENCE-ID:20260216T100000Z',
      'DTSTART:20260217T100000Z',
      'END:VEVENT',
      'END:VCALENDAR',
    ].join('\r\n');
    assert.deepEqual(
      parseIcs(feed, { subscriptionId: 's', now, horizonDays: 30 }).map((e) => [e.id, e.start, e.title]),
      [
        ['s-h-0', '2026-01-05T10:00:00.000Z', 'Review'],
        ['s-h-1', '2026-01-12T10:00:00.000Z', 'Review'],
        ['s-h-2', '2026-01-19T10:00:00.000Z', 'Review'],
        ['s-h-3', '2026-01-26T10:00:00.000Z', 'Review'],
        // Numbered as the series' sixth occurrence, the id it has once the horizon reaches it.
        ['s-h-5', '2026-01-28T15:00:00.000Z', 'Review (early)'],
      ],
    );
  });

  it('reads a date written without VALUE=DATE as that day, as calendar programs do', () => {
    const events = parseIcs(
      [
        'BEGIN:VCALENDAR',
        'BEGIN:VEVENT',
        'UID:a',
        'SUMMARY:Day off',
        'DTSTART:20260110',
        'DTEND:20260111',
        'END:VEVENT',
        'BEGIN:VEVENT',
        'UID:b',
        'SUMMARY:Daily',
        'DTSTART:20260110',
        'RRULE:FREQ=DAILY;COUNT=3',
        'EXDATE:20260111',
        'END:VEVENT',
        'BEGIN:VEVENT',
        'UID:c',
        'SUMMARY:Said otherwise',
        'DTSTART;VALUE=DATE-TIME:20260110',
        'END:VEVENT',
        'END:VCALENDAR',
      ].join('\r\n'),
      { subscriptionId: 's', now },
    );
    assert.deepEqual(
      events.map((e) => [e.title, e.start, e.end, e.allDay]),
      [
        ['Day off', '2026-01-10', '2026-01-11', true],
        ['Daily', '2026-01-10', undefined, true],
        ['Daily', '2026-01-12', undefined, true],
      ],
    );
  });

  it('renders all-day events as dates with exclusive ends, and expands all-day series', () => {
    const holiday = byTitle('Holiday')[0];
    assert.deepEqual(
      { start: holiday?.start, end: holiday?.end, allDay: holiday?.allDay },
      { start: '2026-02-01', end: '2026-02-03', allDay: true },
    );
    assert.deepEqual(
      byTitle('Rent').map((e) => [e.start, e.end]),
      [
        ['2026-01-01', '2026-01-02'],
        ['2026-02-01', '2026-02-02'],
        ['2026-03-01', '2026-03-02'],
      ],
    );
  });

  it('skips cancelled and declined events and names uid-less events by index', () => {
    assert.equal(byTitle('Cancelled').length, 0);
    assert.equal(byTitle('Declined').length, 0);
    assert.equal(byTitle('No uid')[0]?.id, 'sub1-sub1-9');
  });

  it('stops expanding at the horizon', () => {
    const daily = [
      'BEGIN:VCALENDAR',
      'BEGIN:VEVENT',
      'UID:d',
      'DTSTART:20260101T100000Z',
      'RRULE:FREQ=DAILY',
      'END:VEVENT',
      'END:VCALENDAR',
    ].join('\r\n');
    const out = parseIcs(daily, { subscriptionId: 's', now, horizonDays: 10 });
    assert.equal(out.length, 10);
    assert.equal(out.at(-1)?.start, '2026-01-10T10:00:00.000Z');
    const capped = parseIcs(daily, { subscriptionId: 's', now, horizonDays: 10, maxInstances: 3 });
    assert.deepEqual(
      capped.map((e) => [e.id, e.start.slice(0, 10)]),
      [
        ['s-d-0', '2026-01-01'],
        ['s-d-1', '2026-01-02'],
        ['s-d-2', '2026-01-03'],
      ],
    );
  });

  it('keeps the instances of a long series from a month before now on, numbered from DTSTART', () => {
    const series = (start: string, rule: string): string =>
      [
        'BEGIN:VCALENDAR',
        'BEGIN:VEVENT',
        'UID:d',
        'SUMMARY:Series',
        `DTSTART:${start}`,
        `RRULE:${rule}`,
        'END:VEVENT',
        'END:VCALENDAR',
      ].join('\r\n');
    const day = 86_400_000;
    const numberOf = (e: { id: string }): number => Number(e.id.slice('s-d-'.length));

    // Daily since 1990: 13,149 days before now, past the 10,000 occurrences once looked at.
    const daily = parseIcs(series('19900101T090000Z', 'FREQ=DAILY'), {
      subscriptionId: 's',
      now,
      horizonDays: 30,
    });
    assert.equal(daily.length, 3000);
    assert.ok(daily.some((e) => e.start === '2026-01-01T09:00:00.000Z'));
    assert.equal(daily.at(-1)?.start, '2026-01-30T09:00:00.000Z');
    const today = daily.find((e) => e.start === '2026-01-01T09:00:00.000Z');
    assert.equal(today && numberOf(today), (now - Date.UTC(1990, 0, 1)) / day);

    // Hourly since a year before: more instances ahead than are kept; the kept ones start a
    // month before now, not 3,000 hours before the horizon.
    const hourly = parseIcs(series('20250101T000000Z', 'FREQ=HOURLY'), { subscriptionId: 's', now });
    assert.equal(hourly.length, 3000);
    assert.equal(hourly[0]?.start, new Date(now - 30 * day).toISOString());
    assert.equal(hourly[0] && numberOf(hourly[0]), 335 * 24);

    // A series that ended long ago: its latest instances.
    const ended = parseIcs(series('20000101T090000Z', 'FREQ=DAILY;UNTIL=20101231T090000Z'), {
      subscriptionId: 's',
      now,
      maxInstances: 2,
    });
    assert.deepEqual(
      ended.map((e) => e.start.slice(0, 10)),
      ['2010-12-30', '2010-12-31'],
    );

    // The occurrences looked at are bounded per series and per feed, and a series cut short
    // is counted with where it stopped (the subscription's lastWarning says so).
    const bounded = parseIcsDetailed(series('19900101T090000Z', 'FREQ=DAILY'), {
      subscriptionId: 's',
      now,
      feedIterations: 100,
    });
    assert.equal(bounded.events.at(-1)?.start, '1990-04-10T09:00:00.000Z');
    assert.equal(bounded.cutShort, 1);
    assert.deepEqual(bounded.firstCutShort, { name: 'Series', after: '1990-04-10T09:00:00.000Z' });
    const perSeries = parseIcsDetailed(series('20260101T000000Z', 'FREQ=MINUTELY'), {
      subscriptionId: 's',
      now,
      maxIterations: 500,
      maxInstances: 10_000,
    });
    assert.equal(perSeries.events.length, 500);
    assert.deepEqual(perSeries.firstCutShort, { name: 'Series', after: '2026-01-01T08:19:00.000Z' });
    // Ending, reaching the horizon or the instances kept is no cut.
    for (const done of [
      parseIcsDetailed(series('20000101T090000Z', 'FREQ=DAILY;UNTIL=20101231T090000Z'), {
        subscriptionId: 's',
        now,
      }),
      parseIcsDetailed(series('20260101T090000Z', 'FREQ=DAILY'), { subscriptionId: 's', now }),
      parseIcsDetailed(series('20250101T000000Z', 'FREQ=HOURLY'), { subscriptionId: 's', now }),
    ]) {
      assert.equal(done.cutShort, undefined);
      assert.equal(done.firstCutShort, undefined);
    }
  });

  it('leaves out an event its owner declined, not one another attendee declined', () => {
    const calendar = (head: string[], ...attendees: string[]): string =>
      [
        'BEGIN:VCALENDAR',
        ...head,
        'BEGIN:VEVENT',
        'UID:m',
        'SUMMARY:Meeting',
        'DTSTART:20260110T090000Z',
        ...attendees.map((a) => `ATTENDEE;PARTSTAT=${a}`),
        'END:VEVENT',
        'END:VCALENDAR',
      ].join('\r\n');
    const shown = (text: string): boolean => parseIcs(text, { subscriptionId: 's', now }).length === 1;
    const google = ['X-WR-CALNAME:Me@Example.com'];
    const me = (partstat: string): string => `${partstat}:mailto:me@example.com`;
    const bob = (partstat: string): string => `${partstat}:mailto:bob@example.com`;
    // Google's feed names its owner.
    assert.equal(shown(calendar(google, me('ACCEPTED'), bob('DECLINED'))), true);
    assert.equal(shown(calendar(google, me('DECLINED'), bob('ACCEPTED'))), false);
    // Other feeds do not: left out only when every attendee declined.
    assert.equal(shown(calendar(['X-WR-CALNAME:Work'], me('ACCEPTED'), bob('DECLINED'))), true);
    assert.equal(shown(calendar([], me('DECLINED'))), false);
    assert.equal(shown(calendar([], me('DECLINED'), bob('DECLINED'))), false);
    assert.equal(shown(calendar([])), true);
  });

  it('shows an override whose series is not in the feed (an invitation to one occurrence)', () => {
    const feed = [
      'BEGIN:VCALENDAR',
      'BEGIN:VEVENT',
      'UID:series-elsewhere',
      'RECURRENCE-ID:20260203T150000Z',
      'SUMMARY:Planning (this week only)',
      'DTSTART:20260203T160000Z',
      'DTEND:20260203T170000Z',
      'END:VEVENT',
      'END:VCALENDAR',
    ].join('\r\n');
    assert.deepEqual(parseIcs(feed, { subscriptionId: 's', now }), [
      {
        id: `s-series-elsewhere-T${Date.UTC(2026, 1, 3, 15)}`,
        subscriptionId: 's',
        allDay: false,
        title: 'Planning (this week only)',
        start: '2026-02-03T16:00:00.000Z',
        end: '2026-02-03T17:00:00.000Z',
        recurringEventId: 's-series-elsewhere',
      },
    ]);
  });

  it('removes every EXDATE occurrence, also after one listed twice or one that is no occurrence', () => {
    const weekly = (...exdates: string[]): string[] =>
      parseIcs(
        [
          'BEGIN:VCALENDAR',
          'BEGIN:VEVENT',
          'UID:w',
          'DTSTART:20261130T090000Z',
          'RRULE:FREQ=WEEKLY;COUNT=4',
          ...exdates.map((d) => (d.startsWith(';') ? `EXDATE${d}` : `EXDATE:${d}`)),
          'END:VEVENT',
          'END:VCALENDAR',
        ].join('\r\n'),
        { subscriptionId: 's', now },
      ).map((e) => e.start.slice(0, 10));
    const kept = ['2026-11-30', '2026-12-21'];
    assert.deepEqual(weekly('20261207T090000Z', '20261207T090000Z', '20261214T090000Z'), kept);
    assert.deepEqual(weekly('20261206T090000Z,20261207T090000Z', '20261214T090000Z'), kept);
    assert.deepEqual(weekly('20261207T090000Z', ';VALUE=DATE:20261214'), kept, 'a DATE removes its day');
  });

  it('rejects text that is not a calendar', () => {
    assert.throws(() => parseIcs('hello', { subscriptionId: 's', now }), new RegExp(INVALID_ICS));
    assert.throws(
      () => parseIcs('BEGIN:VCARD\r\nEND:VCARD', { subscriptionId: 's', now }),
      new RegExp(INVALID_ICS),
    );
  });
});
