import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  hasDtstart,
  isValidRecurrence,
  parseRecurrence,
  setDtstartValue,
} from '../../../src/core/recurrence/rule.js';

describe('parseRecurrence', () => {
  it('splits a date DTSTART from the rule', () => {
    const p = parseRecurrence('DTSTART:20250110;FREQ=DAILY;INTERVAL=1');
    assert.deepEqual(p.dtstart, { day: '2025-01-10' });
    assert.equal(p.rule, 'FREQ=DAILY;INTERVAL=1');
  });

  it('accepts a rule without DTSTART, an RRULE: prefix, newlines and DTSTART parameters', () => {
    assert.equal(parseRecurrence('FREQ=WEEKLY;BYDAY=MO,WE').dtstart, undefined);
    assert.equal(parseRecurrence('DTSTART:20250110\nRRULE:FREQ=DAILY').rule, 'FREQ=DAILY');
    assert.deepEqual(parseRecurrence('DTSTART;VALUE=DATE:20250110;FREQ=DAILY').dtstart, {
      day: '2025-01-10',
    });
  });

  it('reads a floating date-time DTSTART as local wall clock', () => {
    assert.deepEqual(parseRecurrence('DTSTART:20250110T093000;FREQ=DAILY').dtstart, {
      day: '2025-01-10',
      seconds: 9 * 3600 + 30 * 60,
    });
  });

  it('marks a date-only UNTIL', () => {
    assert.equal(parseRecurrence('FREQ=DAILY;UNTIL=20250120').untilIsDay, true);
    assert.equal(parseRecurrence('FREQ=DAILY;UNTIL=20250120T000000Z').untilIsDay, false);
  });

  for (const bad of [
    '',
    'FREQ=FOO',
    'INTERVAL=2',
    'FREQ=DAILY;INTERVAL=abc',
    'FREQ=DAILY;INTERVAL=0',
    'FREQ=DAILY;FOO=1',
    'FREQ=WEEKLY;BYDAY=XX',
    'FREQ=MONTHLY;BYMONTHDAY=first',
    'FREQ=DAILY;COUNT=3;UNTIL=20250101',
    'FREQ=DAILY;FREQ=WEEKLY',
    'DTSTART:20250230;FREQ=DAILY',
    'DTSTART:20250101;DTSTART:20250102;FREQ=DAILY',
    'every day',
  ]) {
    it(`rejects ${JSON.stringify(bad)}`, () => {
      assert.equal(isValidRecurrence(bad), false);
    });
  }
});

describe('DTSTART editing', () => {
  it('prepends a DTSTART when missing and replaces an existing one in place', () => {
    assert.equal(setDtstartValue('FREQ=DAILY', '20250101'), 'DTSTART:20250101;FREQ=DAILY');
    assert.equal(setDtstartValue('DTSTART:20240101;FREQ=DAILY', '20250101'), 'DTSTART:20250101;FREQ=DAILY');
    assert.equal(setDtstartValue('FREQ=DAILY;DTSTART:20240101', '20250101'), 'FREQ=DAILY;DTSTART:20250101');
    assert.equal(hasDtstart('FREQ=DAILY'), false);
    assert.equal(hasDtstart('DTSTART:20240101T090000Z;FREQ=DAILY'), true);
  });
});
