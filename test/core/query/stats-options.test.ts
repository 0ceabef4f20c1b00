// "Today" must be the LOCAL day: run this file in a zone far from UTC so the two differ.
process.env.TZ = 'Pacific/Auckland';

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isPastDue, parseDate, resolveRelativeDate } from '../../../src/core/query/dates.js';
import { filterOptions } from '../../../src/core/query/filter-options.js';
import { runQuery } from '../../../src/core/query/run-query.js';
import { taskStats } from '../../../src/core/query/stats.js';
import { and, cond, SETTINGS, task } from './fixtures.js';

// 2026-11-22 12:00 UTC is 2026-11-23 01:00 in Auckland (UTC+13).
const NOW = Date.parse('2026-11-22T12:00:00Z');
const completed = (s: string): boolean => s === 'done';

describe('local dates', () => {
  it('today is the local calendar day, not the UTC one', () => {
    assert.equal(resolveRelativeDate('today', '2026-11-23'), '2026-11-23');
    assert.equal(isPastDue('2026-11-22', '2026-11-23', NOW), true);
    assert.equal(isPastDue('2026-11-23', '2026-11-23', NOW), false);
    // Local wall clock is 01:00: a 00:30 due today has passed, a 09:00 one has not.
    assert.equal(isPastDue('2026-11-23T00:30', '2026-11-23', NOW), true);
    assert.equal(isPastDue('2026-11-23T09:00', '2026-11-23', NOW), false);
    assert.equal(isPastDue('not a date', '2026-11-23', NOW), false);
  });

  it('places a time with an offset or Z at the local time of the instant it names', () => {
    // NOW is 01:00 on 2026-11-23 in Auckland.
    assert.equal(isPastDue('2026-11-22T11:30:00Z', '2026-11-23', NOW), true); // 00:30 local
    assert.equal(isPastDue('2026-11-22T12:30:00Z', '2026-11-23', NOW), false); // 01:30 local
    assert.equal(isPastDue('2026-11-23T00:30', '2026-11-23', NOW), true); // naive: as written
    assert.equal(isPastDue('2026-11-22T07:30:00-05:00', '2026-11-23', NOW), false); // 01:30 local
    assert.equal(isPastDue('2026-11-23T00:30+1300', '2026-11-23', NOW), true);
    assert.equal(parseDate('2026-11-22T12:30:00Z')?.day, '2026-11-23');
    // The same instant written three ways sorts as one.
    const instants = ['2026-11-23T01:30', '2026-11-22T12:30:00Z', '2026-11-22T07:30:00-05:00'].map(
      (v) => parseDate(v)?.instant,
    );
    assert.equal(new Set(instants).size, 1);
    const stats = taskStats(
      [task('z.md', { due: '2026-11-22T11:30:00Z' }), task('later.md', { due: '2026-11-22T12:30:00Z' })],
      completed,
      NOW,
    );
    assert.equal(stats.overdue, 1);
  });

  it('parses dates strictly', () => {
    assert.equal(parseDate('2026-02-29'), undefined);
    // Years 0000-0099 are dates, as the write validation takes them (Date.UTC reads them as 19xx).
    assert.equal(parseDate('0099-06-01')?.day, '0099-06-01');
    assert.equal(isPastDue('0099-06-01', '2026-11-23', NOW), true);
    assert.equal(parseDate('2026-01-01T24:00'), undefined);
    assert.equal(parseDate('2026-01-01T10:00:00.000+11:00')?.day, '2026-01-01');
    assert.equal(resolveRelativeDate('In 2  Weeks', '2026-11-23'), '2026-12-07');
    assert.equal(resolveRelativeDate('3 days ago', '2026-11-23'), '2026-11-20');
    assert.equal(resolveRelativeDate('fortnight', '2026-11-23'), undefined);
  });

  it('a relative query value resolves with the local today', () => {
    const tasks = [
      task('utc-today.md', { due: '2026-11-22' }),
      task('local-today.md', { due: '2026-11-23' }),
    ];
    const result = runQuery(and(cond('due', 'is', 'today')), { tasks, settings: SETTINGS, now: NOW });
    assert.deepEqual(
      result.tasks.map((t) => t.path),
      ['local-today.md'],
    );
  });
});

describe('stats', () => {
  it('counts total, completed, active, overdue (local date), archived and time tracking', () => {
    const tasks = [
      task('overdue-local.md', { due: '2026-11-22' }), // overdue only by the local date
      task('due-today.md', { due: '2026-11-23' }),
      task('done-late.md', { due: '2026-11-01', status: 'done' }),
      task('archived-late.md', { due: '2026-11-01', archived: true, tags: ['task', 'archived'] }),
      task('tracked.md', {
        timeEntries: [{ startTime: '2026-11-20T10:00:00Z', endTime: '2026-11-20T11:00:00Z' }],
      }),
      task('recurring-done-today.md', { recurrence: 'FREQ=DAILY', complete_instances: ['2026-11-23'] }),
    ];
    assert.deepEqual(taskStats(tasks, completed, NOW), {
      total: 6,
      completed: 1,
      active: 4,
      overdue: 1,
      archived: 1,
      withTimeTracking: 1,
    });
  });
});

describe('filter options', () => {
  it('lists configured statuses and priorities, distinct values, folders and user properties', () => {
    const tasks = [
      task('Work/a.md', { contexts: ['@office', ' @home '], projects: ['[[Site]]'], tags: ['task', 'work'] }),
      task('Work/b.md', { contexts: ['@office'], tags: ['task', 'Alpha'] }),
      task('root.md'),
    ];
    const options = filterOptions(tasks, SETTINGS);
    assert.deepEqual(options.statuses, SETTINGS.statuses);
    assert.deepEqual(options.priorities, SETTINGS.priorities);
    assert.deepEqual(options.contexts, ['@home', '@office']);
    assert.deepEqual(options.projects, ['[[Site]]']);
    assert.deepEqual(options.tags, ['Alpha', 'task', 'work']);
    assert.deepEqual(options.folders, ['(Root)', 'Work']);
    assert.deepEqual(options.userProperties[0], {
      id: 'user:effort',
      label: 'Effort',
      category: 'numeric',
      valueInputType: 'number',
      supportedOperators: [
        'is',
        'is-not',
        'is-greater-than',
        'is-less-than',
        'is-greater-than-or-equal',
        'is-less-than-or-equal',
        'is-empty',
        'is-not-empty',
      ],
    });
    assert.deepEqual(
      options.userProperties.map((p) => [p.id, p.category, p.valueInputType]),
      [
        ['user:effort', 'numeric', 'number'],
        ['user:billable', 'boolean', 'none'],
        ['user:review', 'date', 'date'],
        ['user:people', 'text', 'text'],
        ['user:client', 'text', 'text'],
      ],
    );
  });

  it('skips user fields without a key or display name', () => {
    const options = filterOptions([], { ...SETTINGS, userFields: [{ id: 'x', key: 'x', type: 'text' }] });
    assert.deepEqual(options.userProperties, []);
  });
});
