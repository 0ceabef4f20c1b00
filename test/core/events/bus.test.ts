import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EventBus } from '../../../src/core/events/bus.js';
import { EVENT_NAMES, isEventName } from '../../../src/core/events/catalogue.js';
import type { Logger } from '../../../src/core/logger.js';
import { ManualClock } from '../../helpers/manual-clock.js';
import { sampleTask } from '../../helpers/sample-task.js';

const task = sampleTask();

describe('event catalogue', () => {
  it('has the 14 event names of the interface', () => {
    assert.deepEqual([...EVENT_NAMES].sort(), [
      'pomodoro.completed',
      'pomodoro.interrupted',
      'pomodoro.started',
      'recurring.instance.completed',
      'recurring.instance.skipped',
      'reminder.triggered',
      'task.archived',
      'task.completed',
      'task.created',
      'task.deleted',
      'task.unarchived',
      'task.updated',
      'time.started',
      'time.stopped',
    ]);
    assert.equal(isEventName('task.created'), true);
    assert.equal(isEventName('task.exploded'), false);
    assert.equal(isEventName('toString'), false);
  });
});

describe('EventBus', () => {
  it('delivers to name and wildcard listeners with the clock time', () => {
    const clock = new ManualClock(1000);
    const bus = new EventBus(clock, console as unknown as Logger);
    const seen: string[] = [];
    const off = bus.on('task.created', (e) => seen.push(`named ${e.data.task.id} ${e.at}`));
    bus.onAny((e) => seen.push(`any ${e.name}`));
    bus.emit('task.created', { task });
    bus.emit('task.deleted', { task });
    off();
    bus.emit('task.created', { task });
    assert.deepEqual(seen, ['named a.md 1000', 'any task.created', 'any task.deleted', 'any task.created']);
  });

  it('isolates a throwing listener from the emitter and the others', () => {
    const errors: unknown[] = [];
    const log = { error: (o: unknown) => errors.push(o), warn() {}, info() {}, debug() {} } as Logger;
    const bus = new EventBus(new ManualClock(), log);
    let reached = false;
    bus.on('task.deleted', () => {
      throw new Error('listener bug');
    });
    bus.on('task.deleted', () => (reached = true));
    assert.doesNotThrow(() => bus.emit('task.deleted', { task }));
    assert.equal(reached, true);
    assert.equal(errors.length, 1);
  });
});
