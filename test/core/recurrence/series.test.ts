import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { dtstartValue, ensureDtstart } from '../../../src/core/recurrence/dtstart.js';
import { Series } from '../../../src/core/recurrence/series.js';

describe('Series', () => {
  it('seeds from DTSTART, else scheduled, else dateCreated', () => {
    assert.equal(
      Series.of({ recurrence: 'DTSTART:20260105;FREQ=DAILY', scheduled: '2026-02-01' }).startDay,
      '2026-01-05',
    );
    assert.equal(
      Series.of({ recurrence: 'FREQ=DAILY', scheduled: '2026-02-01T09:00' }).startDay,
      '2026-02-01',
    );
    assert.equal(
      Series.of({ recurrence: 'FREQ=DAILY', dateCreated: '2026-03-01T10:00:00.000+10:00' }).startDay,
      '2026-03-01',
    );
    assert.throws(() => Series.of({ recurrence: 'FREQ=DAILY' }), /no start/);
  });

  it('lists occurrence days in a window, both ends included', () => {
    const s = Series.of({ recurrence: 'DTSTART:20260105;FREQ=WEEKLY;BYDAY=MO,WE,FR' });
    assert.deepEqual(s.between('2026-01-05', '2026-01-12'), [
      '2026-01-05',
      '2026-01-07',
      '2026-01-09',
      '2026-01-12',
    ]);
    assert.equal(s.occursOn('2026-01-06'), false);
    assert.equal(s.occursOn('2026-01-07'), true);
    assert.deepEqual(s.between('2026-01-10', '2026-01-09'), []);
  });

  it('counts a date-only UNTIL as the whole day, even for timed occurrences', () => {
    const s = Series.of({ recurrence: 'DTSTART:20260105T090000;FREQ=DAILY;UNTIL=20260107' });
    assert.deepEqual(s.between('2026-01-01', '2026-01-31'), ['2026-01-05', '2026-01-06', '2026-01-07']);
  });

  it('finds the first accepted day from a start, and nothing after COUNT runs out', () => {
    const s = Series.of({ recurrence: 'DTSTART:20260101;FREQ=DAILY;COUNT=5' });
    assert.equal(
      s.firstFrom('2026-01-02', (d) => d !== '2026-01-02'),
      '2026-01-03',
    );
    assert.equal(s.firstFrom('2026-01-06'), undefined);
    const endless = Series.of({ recurrence: 'DTSTART:20260101;FREQ=DAILY' });
    assert.equal(
      endless.firstFrom('2026-01-01', () => false),
      undefined,
      'gives up instead of looping',
    );
  });

  it('finds the last accepted day within a look-back window', () => {
    const s = Series.of({ recurrence: 'DTSTART:20260105;FREQ=WEEKLY;BYDAY=MO' });
    assert.equal(
      s.lastUpTo('2026-01-21', s.lookbackDays(), () => true),
      '2026-01-19',
    );
    assert.equal(
      s.lastUpTo('2026-01-21', s.lookbackDays(), (d) => d !== '2026-01-19'),
      '2026-01-12',
    );
    assert.equal(s.lookbackDays(), 90);
  });
});

describe('DTSTART generation and time zones', () => {
  let savedTz: string | undefined;
  beforeEach(() => {
    savedTz = process.env.TZ;
    process.env.TZ = 'Australia/Sydney';
  });
  afterEach(() => {
    if (savedTz === undefined) delete process.env.TZ;
    else process.env.TZ = savedTz;
  });

  it('writes a date-only DTSTART for a date and real UTC for a local time (docs/api-decisions.md)', () => {
    assert.equal(dtstartValue('2025-12-30'), '20251230');
    // 09:00 in Sydney (UTC+11 in December) is 22:00 UTC the day before.
    assert.equal(dtstartValue('2025-12-30T09:00'), '20251229T220000Z');
    assert.equal(dtstartValue('2025-12-30T09:00:00Z'), '20251230T090000Z');
    assert.throws(() => dtstartValue('2025-13-01'));
    assert.throws(() => dtstartValue('2025-12-30Tnope'));
  });

  it('evaluates a UTC DTSTART on the local calendar day it stands for', () => {
    const recurrence = ensureDtstart('FREQ=DAILY;COUNT=2', '2025-12-30T09:00');
    assert.equal(recurrence, 'DTSTART:20251229T220000Z;FREQ=DAILY;COUNT=2');
    assert.deepEqual(Series.of({ recurrence }).between('2025-12-01', '2026-01-31'), [
      '2025-12-30',
      '2025-12-31',
    ]);
  });

  it('keeps an existing DTSTART and falls back to dateCreated', () => {
    assert.equal(ensureDtstart('DTSTART:20250101;FREQ=DAILY', '2026-01-01'), 'DTSTART:20250101;FREQ=DAILY');
    assert.equal(ensureDtstart('FREQ=DAILY', undefined, '2026-02-03'), 'DTSTART:20260203;FREQ=DAILY');
    assert.equal(ensureDtstart('FREQ=DAILY'), 'FREQ=DAILY');
  });
});
