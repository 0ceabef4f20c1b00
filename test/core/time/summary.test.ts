/** Time read models with a fixed clock and a fixed zone (UTC+10, no DST). */
process.env.TZ = 'Australia/Brisbane';

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TaskInfo } from '../../../src/core/tasks/task-info.js';
import { activeSessions, summaryRange, taskTimeReport, timeSummary } from '../../../src/core/time/summary.js';
import { sampleTask } from '../../helpers/sample-task.js';

// Thursday 2026-01-15 09:00 local (+10:00) = 2026-01-14T23:00Z.
const NOW = Date.parse('2026-01-15T09:00:00+10:00');

function task(path: string, extra: Partial<TaskInfo> = {}): TaskInfo {
  return sampleTask({ id: path, path, title: path.replace(/\.md$/, ''), ...extra });
}

const at = (local: string): string => new Date(Date.parse(`${local}+10:00`)).toISOString();

describe('time summaries', () => {
  it('computes the named period ranges in local time', () => {
    assert.equal(new Date(summaryRange({}, NOW).start).toISOString(), at('2026-01-15T00:00:00'));
    assert.equal(
      new Date(summaryRange({ period: 'week' }, NOW).start).toISOString(),
      at('2026-01-11T00:00:00'),
    );
    assert.equal(
      new Date(summaryRange({ period: 'month' }, NOW).start).toISOString(),
      at('2026-01-01T00:00:00'),
    );
    assert.equal(summaryRange({ period: 'all' }, NOW).start, 0);
    assert.equal(summaryRange({ period: 'week' }, NOW).end, NOW);
  });

  it('uses from/to for other periods, date-only as UTC midnight, and rejects bad dates', () => {
    const r = summaryRange({ period: 'custom', from: '2026-01-01', to: '2026-01-10' }, NOW);
    assert.equal(r.start, Date.UTC(2026, 0, 1));
    assert.equal(r.end, Date.UTC(2026, 0, 10));
    assert.equal(summaryRange({ period: 'custom', from: '2026-01-01' }, NOW).end, NOW);
    assert.throws(() => summaryRange({ period: 'custom', from: 'yesterday' }, NOW), /Invalid "from" date/);
    // Date.parse rolls 2026-02-30 over into March; it is no date here.
    assert.throws(() => summaryRange({ period: 'custom', from: '2026-02-30' }, NOW), /Invalid "from" date/);
    assert.throws(
      () => summaryRange({ period: 'custom', from: '2026-01-01', to: '2026-11-31T10:00' }, NOW),
      /Invalid "to" date/,
    );
    assert.throws(
      () => summaryRange({ period: 'x', from: '2026-01-01', to: 'nope' }, NOW),
      /Invalid "to" date/,
    );
    assert.throws(
      () => summaryRange({ period: 'x', from: '2026-01-10', to: '2026-01-01' }, NOW),
      /must not be after/,
    );
    // Named periods ignore from/to, as the reference does.
    assert.doesNotThrow(() => summaryRange({ period: 'today', from: 'nope' }, NOW));
  });

  it('counts entries that start in range with their whole, floored duration', () => {
    const tasks = [
      task('A.md', {
        projects: ['[[Alpha]]'],
        tags: ['task', 'deep'],
        timeEntries: [
          { startTime: at('2026-01-15T08:00:00'), endTime: at('2026-01-15T08:30:59') }, // 30
          { startTime: at('2026-01-14T23:50:00'), endTime: at('2026-01-15T00:50:00') }, // yesterday: out
        ],
      }),
      task('B.md', {
        status: 'done',
        projects: ['[[Alpha]]'],
        timeEntries: [{ startTime: at('2026-01-15T07:00:00'), endTime: at('2026-01-15T08:00:00') }], // 60
      }),
      task('C.md', { timeEntries: [{ startTime: at('2026-01-15T08:45:00') }] }), // running: 15
      task('D.md', { timeEntries: [{ startTime: at('2026-01-15T08:59:30') }] }), // 0 minutes: excluded
    ];
    const s = timeSummary(tasks, {}, NOW, (status) => status === 'done');
    assert.equal(s.period, 'today');
    assert.deepEqual(s.dateRange, { from: at('2026-01-15T00:00:00'), to: new Date(NOW).toISOString() });
    assert.deepEqual(s.summary, {
      totalMinutes: 105,
      totalHours: 1.75,
      tasksWithTime: 3,
      activeTasks: 1,
      completedTasks: 1,
    });
    assert.deepEqual(
      s.topTasks.map((t) => [t.task, t.minutes]),
      [
        ['B.md', 60],
        ['A.md', 30],
        ['C.md', 15],
      ],
    );
    assert.deepEqual(s.topProjects, [{ project: '[[Alpha]]', minutes: 90 }]);
    assert.deepEqual(s.topTags[0], { tag: 'task', minutes: 105 });
    assert.deepEqual(
      s.topTags.find((t) => t.tag === 'deep'),
      { tag: 'deep', minutes: 30 },
    );
    assert.equal(timeSummary(tasks, { period: 'all' }, NOW, () => false).summary.totalMinutes, 165);
  });

  it('reports one task with totals, averages and the running session', () => {
    const report = taskTimeReport(
      task('A.md', {
        timeEntries: [
          { startTime: at('2026-01-15T07:00:00'), endTime: at('2026-01-15T07:25:00'), description: 'one' },
          { startTime: at('2026-01-15T07:30:00'), endTime: at('2026-01-15T07:40:30') },
          { startTime: at('2026-01-15T08:50:00') },
        ],
      }),
      NOW,
    );
    assert.deepEqual(report.task, { id: 'A.md', title: 'A', status: 'open', priority: 'normal' });
    assert.deepEqual(report.summary, {
      totalMinutes: 45,
      totalHours: 0.75,
      totalSessions: 3,
      completedSessions: 2,
      activeSessions: 1,
      averageSessionMinutes: 17.5,
    });
    assert.deepEqual(report.activeSession, { startTime: at('2026-01-15T08:50:00'), elapsedMinutes: 10 });
    assert.deepEqual(report.timeEntries[1], {
      startTime: at('2026-01-15T07:30:00'),
      endTime: at('2026-01-15T07:40:30'),
      description: null,
      duration: 10,
      isActive: false,
    });
    assert.equal(report.timeEntries[2]?.isActive, true);
  });

  it('lists running sessions of several tasks', () => {
    const active = activeSessions(
      [
        task('A.md', { timeEntries: [{ startTime: at('2026-01-15T08:00:00'), description: 'x' }] }),
        task('B.md', {
          timeEntries: [{ startTime: at('2026-01-15T08:00:00'), endTime: at('2026-01-15T08:10:00') }],
        }),
        task('C.md', { projects: ['[[P]]'], timeEntries: [{ startTime: at('2026-01-15T08:30:00') }] }),
      ],
      NOW,
    );
    assert.equal(active.totalActiveSessions, 2);
    assert.equal(active.totalElapsedMinutes, 90);
    assert.deepEqual(active.activeSessions[0]?.session, {
      startTime: at('2026-01-15T08:00:00'),
      description: 'x',
      elapsedMinutes: 60,
    });
    assert.deepEqual(active.activeSessions[1]?.task, {
      id: 'C.md',
      title: 'C',
      status: 'open',
      priority: 'normal',
      tags: ['task'],
      projects: ['[[P]]'],
    });
  });
});
