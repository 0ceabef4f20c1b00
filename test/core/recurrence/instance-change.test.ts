import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { changeInstance, owningDay, recalculate } from '../../../src/core/recurrence/instance-change.js';
import { addedDays, applyInstanceAction, instanceState } from '../../../src/core/recurrence/instances.js';
import { nextSchedule, type RecurringState } from '../../../src/core/recurrence/schedule.js';

const daily = (over: Partial<RecurringState> = {}): RecurringState => ({
  recurrence: 'FREQ=DAILY',
  anchor: 'scheduled',
  scheduled: '2026-01-05',
  complete: [],
  skipped: [],
  ...over,
});

describe('instance lists', () => {
  it('keeps the lists disjoint and every action idempotent', () => {
    const start = { complete: ['2026-01-01'], skipped: ['2026-01-02'] };
    const done = applyInstanceAction(start, '2026-01-02', 'complete');
    assert.deepEqual(done, { complete: ['2026-01-01', '2026-01-02'], skipped: [] });
    assert.deepEqual(applyInstanceAction(done, '2026-01-02', 'complete'), done);
    const skipped = applyInstanceAction(done, '2026-01-01', 'skip');
    assert.deepEqual(skipped, { complete: ['2026-01-02'], skipped: ['2026-01-01'] });
    assert.deepEqual(applyInstanceAction(skipped, '2026-01-01', 'unskip'), {
      complete: ['2026-01-02'],
      skipped: [],
    });
    assert.deepEqual(applyInstanceAction(skipped, '2026-01-02', 'uncomplete'), {
      complete: [],
      skipped: ['2026-01-01'],
    });
    assert.equal(instanceState(skipped, '2026-01-01'), 'skipped');
    assert.equal(instanceState(skipped, '2026-01-02'), 'completed');
    assert.equal(instanceState(skipped, '2026-01-03'), 'open');
    assert.deepEqual(addedDays(['a'], ['a', 'b', 'b']), ['b']);
  });
});

describe('nextSchedule', () => {
  it('scheduled anchor: first open occurrence on or after the floor, keeping the time', () => {
    const next = nextSchedule(
      daily({ scheduled: '2026-01-05T09:30', complete: ['2026-01-06'], skipped: ['2026-01-07'] }),
      '2026-01-06',
      { maintainDueOffset: false },
    );
    assert.deepEqual(next, { scheduled: '2026-01-08T09:30' });
  });

  it('moves due by the scheduled→due offset when asked, or when it would fall behind', () => {
    const state = daily({ due: '2026-01-07T17:00' });
    assert.deepEqual(nextSchedule(state, '2026-01-06', { maintainDueOffset: true }), {
      scheduled: '2026-01-06',
      due: '2026-01-08T17:00',
    });
    assert.deepEqual(nextSchedule(state, '2026-01-06', { maintainDueOffset: false }), {
      scheduled: '2026-01-06',
    });
    assert.deepEqual(nextSchedule(state, '2026-01-10', { maintainDueOffset: false }), {
      scheduled: '2026-01-10',
      due: '2026-01-12T17:00',
    });
  });

  it('completion anchor: strictly after DTSTART, ignores completed days, honours skips', () => {
    const state = daily({
      recurrence: 'DTSTART:20260110;FREQ=DAILY;INTERVAL=3',
      anchor: 'completion',
      complete: ['2026-01-13'],
      skipped: ['2026-01-16'],
    });
    assert.deepEqual(nextSchedule(state, '2026-01-10', { maintainDueOffset: false }), {
      scheduled: '2026-01-13',
    });
    assert.deepEqual(nextSchedule(state, '2026-01-14', { maintainDueOffset: false }), {
      scheduled: '2026-01-19',
    });
  });

  it('returns nothing when the rule has no further occurrence', () => {
    assert.equal(
      nextSchedule(daily({ recurrence: 'DTSTART:20260105;FREQ=DAILY;COUNT=2' }), '2026-01-07', {
        maintainDueOffset: true,
      }),
      undefined,
    );
  });
});

describe('changeInstance', () => {
  it('completing (scheduled anchor) adds DTSTART from scheduled and advances past the day', () => {
    const change = changeInstance(daily({ skipped: ['2026-01-05'] }), '2026-01-05', 'complete', {
      floor: '2026-01-05',
      maintainDueOffset: false,
    });
    assert.deepEqual(change, {
      recurrence: 'DTSTART:20260105;FREQ=DAILY',
      complete: ['2026-01-05'],
      skipped: [],
      scheduled: '2026-01-06',
    });
  });

  it('completing (completion anchor) restarts the chain at the completed day', () => {
    const change = changeInstance(
      daily({ recurrence: 'DTSTART:20260105;FREQ=WEEKLY', anchor: 'completion' }),
      '2026-01-08',
      'complete',
      { floor: '2026-01-08', maintainDueOffset: false },
    );
    assert.equal(change.recurrence, 'DTSTART:20260108;FREQ=WEEKLY');
    assert.equal(change.scheduled, '2026-01-15');
  });

  it('uncompleting brings the instance back as the next open one', () => {
    const state = daily({
      recurrence: 'DTSTART:20260105;FREQ=DAILY',
      scheduled: '2026-01-06',
      complete: ['2026-01-05'],
    });
    const change = changeInstance(state, '2026-01-05', 'uncomplete', {
      floor: '2026-01-05',
      maintainDueOffset: false,
    });
    assert.deepEqual(change.complete, []);
    assert.equal(change.scheduled, '2026-01-05');
  });

  it('skipping advances like completing, and a rule without seed fails loudly', () => {
    const change = changeInstance(daily(), '2026-01-05', 'skip', {
      floor: '2026-01-05',
      maintainDueOffset: false,
    });
    assert.deepEqual([change.skipped, change.scheduled], [['2026-01-05'], '2026-01-06']);
    assert.throws(() =>
      changeInstance(daily({ scheduled: undefined }), '2026-01-05', 'skip', {
        floor: '2026-01-05',
        maintainDueOffset: false,
      }),
    );
  });

  it('recalculate adds DTSTART only for the scheduled anchor', () => {
    assert.equal(
      recalculate(daily(), { floor: '2026-01-09', maintainDueOffset: false }).recurrence,
      'DTSTART:20260105;FREQ=DAILY',
    );
    const completion = recalculate(daily({ anchor: 'completion' }), {
      floor: '2026-01-09',
      maintainDueOffset: false,
    });
    assert.deepEqual(completion, { recurrence: 'FREQ=DAILY', scheduled: '2026-01-09' });
  });
});

describe('owningDay', () => {
  const weekly = daily({ recurrence: 'DTSTART:20260105;FREQ=WEEKLY;BYDAY=MO' });
  it('is the day itself when the rule produces it', () => {
    assert.equal(owningDay(weekly, '2026-01-12'), '2026-01-12');
  });
  it('is the latest open occurrence before a non-occurrence day', () => {
    assert.equal(owningDay(weekly, '2026-01-14'), '2026-01-12');
    assert.equal(owningDay({ ...weekly, complete: ['2026-01-12'] }, '2026-01-14'), '2026-01-05');
  });
  it('is the next open occurrence when none is open before', () => {
    assert.equal(owningDay({ ...weekly, complete: ['2026-01-05'] }, '2026-01-07'), '2026-01-12');
  });
  it('is the requested day for the completion anchor', () => {
    assert.equal(owningDay({ ...weekly, anchor: 'completion' }, '2026-01-14'), '2026-01-14');
  });
});
