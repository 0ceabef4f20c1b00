import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addDays, daysBetween, isRealDay } from '../../../src/core/dates/calendar.js';
import { addDuration, parseIsoDuration } from '../../../src/core/dates/duration.js';
import { resolveOperationTargetDate } from '../../../src/core/dates/operation-target.js';
import {
  parseDateToLocal,
  parseDateToUTC,
  parseTemporalValue,
  validateDateString,
} from '../../../src/core/dates/parse.js';
import { getDatePart, hasTimeComponent, isBeforeDay, isSameDay } from '../../../src/core/dates/parts.js';
import { dayInTimezone } from '../../../src/core/dates/timezone.js';
import { isDomainError } from '../../../src/core/errors.js';

test('a date-only value is UTC midnight or local midnight, per parser', () => {
  assert.equal(parseDateToUTC('2026-02-20').toISOString(), '2026-02-20T00:00:00.000Z');
  const local = parseDateToLocal('2026-02-20');
  assert.deepEqual(
    [local.getFullYear(), local.getMonth(), local.getDate(), local.getHours()],
    [2026, 1, 20, 0],
  );
});

test('datetimes with an offset name an instant; the written day is kept separately', () => {
  assert.equal(parseDateToUTC('2026-02-19T23:00:00-01:00').toISOString(), '2026-02-20T00:00:00.000Z');
  assert.equal(parseDateToUTC('2026-02-20 10:00:00+00:00').toISOString(), '2026-02-20T10:00:00.000Z');
  const parsed = parseTemporalValue('2028-06-30T18:30:00-09:00');
  assert.equal(parsed.writtenDay, '2028-06-30');
  assert.equal(parsed.hasTime, true);
  assert.equal(parseDateToUTC('2024-01-26 Fri').toISOString(), '2024-01-26T00:00:00.000Z');
});

test('impossible dates and times are INVALID, never rolled over', () => {
  for (const bad of [
    '',
    ' ',
    '2026-02-30',
    '2026-13-01',
    '2026-2-1',
    '2026/02/01',
    '2026-02-20T24:00:00Z',
    '2026-02-20T23:59:60Z',
    'T10:00',
    'not-a-date',
  ]) {
    assert.throws(
      () => parseDateToUTC(bad),
      (e) => isDomainError(e) && e.code === 'INVALID',
      bad,
    );
  }
  assert.throws(() => validateDateString('2026-02-20T10:00:00Z'), /Expected YYYY-MM-DD/);
  assert.equal(validateDateString('2024-02-29'), '2024-02-29');
  assert.equal(isRealDay(2023, 2, 29), false);
});

test('day views compare the written day and are false for invalid input', () => {
  assert.equal(getDatePart('2026-02-20T23:59:59-12:00'), '2026-02-20');
  assert.equal(hasTimeComponent('2026-02-20T10:00'), true);
  assert.equal(hasTimeComponent('2026-02-20 10:00:00'), false);
  assert.equal(isSameDay('2026-02-20T00:00:00-10:00', '2026-02-20'), true);
  assert.equal(isSameDay('invalid', '2026-02-20'), false);
  assert.equal(isBeforeDay('2026-02-20', '2026-02-20T00:00:00Z'), false);
  assert.equal(isBeforeDay('1999-12-31', '2000-01-01'), true);
});

test('the operation target falls back from explicit to scheduled to due to today', () => {
  const today = '2030-01-01';
  assert.equal(
    resolveOperationTargetDate({ explicitDate: '2024-02-29', scheduled: '2026-01-01', today }),
    '2024-02-29',
  );
  assert.throws(() => resolveOperationTargetDate({ explicitDate: '2026-02-30', today }), /Invalid date/);
  assert.equal(
    resolveOperationTargetDate({ scheduled: '2023-02-29', due: '2024-03-01', today }),
    '2024-03-01',
  );
  assert.equal(resolveOperationTargetDate({ scheduled: ' ', due: 'bad', today }), today);
});

test('dayInTimezone uses IANA zones and rejects unknown ones', () => {
  assert.equal(dayInTimezone('2026-02-20T00:30:00Z', 'America/Los_Angeles'), '2026-02-19');
  assert.equal(dayInTimezone('2026-12-31T23:30:00Z', 'Pacific/Kiritimati'), '2027-01-01');
  assert.throws(() => dayInTimezone('2026-02-20T00:30:00Z', 'Invalid/Zone'), /Invalid timezone/);
});

test('calendar arithmetic ignores DST', () => {
  assert.equal(addDays('2026-03-07', 2), '2026-03-09');
  assert.equal(daysBetween('2026-03-01', '2026-02-27'), 2);
});

test('ISO durations: sign, units, rejects + and empty parts', () => {
  assert.deepEqual(parseIsoDuration('-PT15M'), {
    sign: -1,
    years: 0,
    months: 0,
    weeks: 0,
    days: 0,
    hours: 0,
    minutes: 15,
    seconds: 0,
  });
  assert.equal(parseIsoDuration('P2W')?.weeks, 2);
  for (const bad of ['+PT15M', 'P', 'PT', 'bad-gap', '15M', 'P1DT'])
    assert.equal(parseIsoDuration(bad), null, bad);
  const at = new Date(Date.UTC(2026, 1, 20, 10, 0));
  assert.equal(addDuration(at, parseIsoDuration('-PT1H30M')!).toISOString(), '2026-02-20T08:30:00.000Z');
});

test('years below 100 are not shifted into the 1900s', () => {
  assert.equal(parseDateToUTC('0050-03-01').getUTCFullYear(), 50);
  assert.equal(parseDateToUTC('0050-03-01T10:00:00Z').toISOString(), '0050-03-01T10:00:00.000Z');
});
