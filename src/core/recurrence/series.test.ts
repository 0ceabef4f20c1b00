/**
 * Bounded evaluation of recurrence rules: a window evaluated from a moved start gives the same
 * occurrences as the whole rule, and a walk stops after its period budget.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import rrulePkg from 'rrule';
import { addDays, dateToDay, daysBetween, dayToDate } from './day.js';
import { parseRecurrence } from './rule.js';
import { MAX_WINDOW_DAYS, Series } from './series.js';

const { RRule } = rrulePkg;

/** The occurrence days of the whole rule, walked from its start by rrule itself. */
function reference(recurrence: string, scheduled: string, from: string, to: string): string[] {
  const parsed = parseRecurrence(recurrence);
  const start = parsed.dtstart?.day ?? scheduled;
  const dtstart = new Date(dayToDate(start).getTime() + (parsed.dtstart?.seconds ?? 0) * 1000);
  const options = { ...parsed.options, dtstart };
  if (parsed.untilIsDay && options.until) options.until = new Date(options.until.getTime() + 86_399_999);
  const end = new Date(dayToDate(to).getTime() + 86_399_999);
  return [...new Set(new RRule(options).between(dayToDate(from), end, true).map(dateToDay))];
}

const RULES = [
  'FREQ=DAILY',
  'FREQ=DAILY;INTERVAL=3',
  'FREQ=DAILY;INTERVAL=10;BYMONTH=3,4',
  'FREQ=WEEKLY',
  'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH',
  'FREQ=WEEKLY;INTERVAL=3;WKST=SU;BYDAY=SU,SA',
  'FREQ=MONTHLY',
  'FREQ=MONTHLY;BYMONTHDAY=31',
  'FREQ=MONTHLY;BYMONTHDAY=-1',
  'FREQ=MONTHLY;BYDAY=-1FR',
  'FREQ=MONTHLY;INTERVAL=5;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1',
  'FREQ=YEARLY',
  'FREQ=YEARLY;INTERVAL=3',
  'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29',
  'FREQ=YEARLY;BYWEEKNO=1;BYDAY=MO',
  'FREQ=YEARLY;BYYEARDAY=-1',
  'DTSTART:20240131T093000;FREQ=MONTHLY',
  'FREQ=DAILY;UNTIL=20270315',
  'FREQ=WEEKLY;BYDAY=WE;UNTIL=20300101',
];

describe('bounded recurrence evaluation', () => {
  it('gives the same occurrences as the whole rule in windows far from its start', () => {
    const scheduled = '2023-01-31'; // a Tuesday, the last day of a month
    for (const rule of RULES) {
      const series = Series.of({ recurrence: rule, scheduled });
      for (const [from, to] of [
        ['2023-01-01', '2023-03-31'],
        ['2024-02-20', '2024-03-10'],
        ['2026-12-25', '2027-04-01'],
        ['2031-06-01', '2031-06-30'],
        ['2044-02-01', '2044-03-05'],
      ] as const) {
        assert.deepEqual(
          series.between(from, to),
          reference(rule, scheduled, from, to),
          `${rule} ${from}..${to}`,
        );
      }
    }
  });

  it('answers occursOn, firstFrom and lastUpTo far from the start', () => {
    const series = Series.of({ recurrence: 'FREQ=DAILY;INTERVAL=2', scheduled: '1970-01-01' });
    const even = daysBetween('1970-01-01', '9999-12-30') % 2 === 0 ? '9999-12-30' : '9999-12-29';
    assert.equal(series.occursOn(even), true);
    assert.equal(series.occursOn(addDays(even, -1)), false);
    assert.equal(series.firstFrom(addDays(even, -1)), even);
    assert.equal(
      series.lastUpTo('5000-01-02', 10, () => true),
      series.occursOn('5000-01-02') ? '5000-01-02' : '5000-01-01',
    );
    const counted = Series.of({ recurrence: 'FREQ=DAILY;COUNT=3', scheduled: '2020-01-01' });
    assert.deepEqual(counted.between('2019-12-30', '2020-01-10'), ['2020-01-01', '2020-01-02', '2020-01-03']);
    assert.equal(counted.firstFrom('2020-01-04'), undefined);
  });

  it('stops a walk that finds nothing after its period budget', () => {
    // Every 7th day from a Monday is a Monday: BYDAY=TU never matches.
    const never = Series.of({ recurrence: 'FREQ=DAILY;INTERVAL=7;BYDAY=TU', scheduled: '2024-01-01' }, 50);
    assert.equal(never.firstFrom('2024-01-01'), undefined);
    assert.deepEqual(never.between('2024-01-01', '2024-12-31'), []);
    // The first 29 February on a Sunday after 2024 is in 2032, 2,922 days away.
    const rare = 'FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29;BYDAY=SU';
    assert.equal(
      Series.of({ recurrence: rare, scheduled: '2024-03-01' }, 2000).firstFrom('2024-03-01'),
      undefined,
    );
    assert.equal(
      Series.of({ recurrence: rare, scheduled: '2024-03-01' }, 4000).firstFrom('2024-03-01'),
      '2032-02-29',
    );
  });

  it('caps the window and the look-back', () => {
    const series = Series.of({ recurrence: 'FREQ=DAILY', scheduled: '2000-01-01' });
    assert.equal(series.between('2000-01-01', '2100-01-01').length, MAX_WINDOW_DAYS);
    const sparse = Series.of({ recurrence: 'FREQ=YEARLY;INTERVAL=1000', scheduled: '2000-01-01' });
    assert.ok(sparse.lookbackDays() < MAX_WINDOW_DAYS);
  });
});

describe('rules refused before any evaluation', () => {
  it('refuses rules finer than daily, overlong rules and too many times of day', () => {
    for (const freq of ['HOURLY', 'MINUTELY', 'SECONDLY']) {
      assert.throws(() => parseRecurrence(`FREQ=${freq}`), new RegExp(`finer than daily \\(FREQ=${freq}\\)`));
    }
    assert.throws(() => parseRecurrence(`FREQ=DAILY;BYMONTHDAY=${'1,'.repeat(600)}1`), /too long/);
    assert.throws(
      () => parseRecurrence('FREQ=DAILY;BYHOUR=1,2,3;BYMINUTE=1,2,3,4,5,6,7,8,9'),
      /27 times of day/,
    );
    assert.doesNotThrow(() => parseRecurrence('FREQ=DAILY;BYHOUR=9,17'));
  });
});
