/** TimeService over a stand-in task store: silent edits, event order and payloads. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { notFound } from '../../../src/core/errors.js';
import { EventBus, type DomainEvent } from '../../../src/core/events/bus.js';
import { silentLogger } from '../../../src/core/logger.js';
import type { TaskInfo } from '../../../src/core/tasks/task-info.js';
import { TimeService, type TimeTasks } from '../../../src/core/time/time-service.js';
import { ManualClock } from '../../helpers/manual-clock.js';

function setup() {
  const clock = new ManualClock(Date.UTC(2026, 0, 15, 9, 0, 0));
  const bus = new EventBus(clock, silentLogger);
  const events: DomainEvent[] = [];
  bus.onAny((e) => events.push(e));
  let task = {
    id: 'A.md',
    path: 'A.md',
    title: 'A',
    status: 'open',
    priority: 'normal',
    tags: [],
    projects: [],
  } as unknown as TaskInfo;
  const editOptions: unknown[] = [];
  const tasks: TimeTasks = {
    get: async (id) => {
      if (id !== task.path) throw notFound('Task not found');
      return task;
    },
    list: () => [task],
    isCompletedStatus: (s) => s === 'done',
    edit: async (id, mutate, options) => {
      if (id !== task.path) throw notFound('Task not found');
      editOptions.push(options);
      const draft = structuredClone(task) as unknown as Record<string, unknown>;
      await mutate(draft);
      const before = task;
      task = draft as unknown as TaskInfo;
      return { before, after: task };
    },
  };
  return { clock, events, editOptions, time: new TimeService(tasks, bus, clock) };
}

describe('TimeService', () => {
  it('starts and stops with silent edits, emitting only the time events', async () => {
    const { clock, events, editOptions, time } = setup();
    const started = await time.start('A.md');
    assert.deepEqual(started.session, { startTime: '2026-01-15T09:00:00.000Z', description: 'Work session' });
    await clock.advance(90_000);
    const stopped = await time.stop('A.md');
    assert.equal(stopped.session.endTime, '2026-01-15T09:01:30.000Z');
    assert.deepEqual(
      events.map((e) => e.name),
      ['time.started', 'time.stopped'],
    );
    assert.deepEqual((events[1]?.data as { session: unknown }).session, stopped.session);
    assert.deepEqual(editOptions, [{ silent: true }, { silent: true }]);
    assert.equal((await time.report('A.md')).summary.totalMinutes, 1);
  });

  it('a description also emits task.updated after time.started; errors change nothing', async () => {
    const { events, time } = setup();
    await time.start('A.md', 'Writing');
    assert.deepEqual(
      events.map((e) => e.name),
      ['time.started', 'task.updated'],
    );
    assert.equal((events[0]?.data as { session: { description: string } }).session.description, 'Writing');
    await assert.rejects(time.start('A.md'), /already active/);
    await assert.rejects(time.start('B.md'), /Task not found/);
    assert.equal(events.length, 2);
  });
});
