/** The pomodoro state machine on a manual clock: timer, breaks, pause/resume, persistence. */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { EventBus, type DomainEvent } from '../../../src/core/events/bus.js';
import { silentLogger } from '../../../src/core/logger.js';
import { pomodoroSettingsOf, type PomodoroSettings } from '../../../src/core/pomodoro/model.js';
import { defaultTaskNotesSettings } from '../../../src/core/tasks/tasknotes-settings.js';
import { PomodoroService, type PomodoroTaskPort } from '../../../src/core/pomodoro/pomodoro-service.js';
import type { TaskInfo } from '../../../src/core/tasks/task-info.js';
import { ManualClock } from '../../helpers/manual-clock.js';
import { waitFor } from '../../helpers/server-process.js';
import { tempDir } from '../../helpers/temp.js';

const TASK = { path: 'Tasks/Write.md', title: 'Write' } as TaskInfo;

function fixture(dataDir: string, clock: ManualClock, settings: Partial<PomodoroSettings> = {}) {
  const bus = new EventBus(clock, silentLogger);
  const events: DomainEvent[] = [];
  bus.onAny((e) => events.push(e));
  const tracking: string[] = [];
  const tasks: PomodoroTaskPort = {
    find: (p) => (p === TASK.path ? TASK : undefined),
    startTracking: async (p) => void tracking.push(`start ${p}`),
    stopTracking: async (p, at) => void tracking.push(`stop ${p} ${new Date(at).toISOString()}`),
  };
  const open = () =>
    PomodoroService.open({
      dataDir,
      clock,
      events: bus,
      log: silentLogger,
      tasks,
      settings: () => ({ ...pomodoroSettingsOf(defaultTaskNotesSettings()), ...settings }),
    });
  const names = (): string[] => events.map((e) => e.name);
  // Transitions finish with a real file save, so wait for their event rather than a fixed tick.
  const emitted = (count: number): Promise<boolean> => waitFor(() => events.length >= count, 2000, 2);
  return { events, tracking, open, names, emitted };
}

describe('PomodoroService', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await tempDir('pomodoro-')));
  afterEach(() => cleanup());

  it('completes a work session on time, tracks its task, then auto-starts a short break', async () => {
    const clock = new ManualClock();
    const f = fixture(dir, clock);
    const pomodoro = await f.open();
    const { session, task } = await pomodoro.start({ taskPath: TASK.path, minutes: 0.05 });
    assert.equal(task, TASK);
    assert.equal(session.plannedDuration, 0.05);
    assert.equal(session.type, 'work');
    assert.equal(pomodoro.status().timeRemaining, 3);
    assert.deepEqual(f.names(), ['pomodoro.started']);

    await clock.advance(2999);
    assert.equal(pomodoro.status().isRunning, true);
    await clock.advance(1);
    await f.emitted(2);
    const completed = f.events.find((e) => e.name === 'pomodoro.completed');
    assert.ok(completed);
    const data = completed.data as { session: { completed: boolean; endTime: string }; task: TaskInfo };
    assert.equal(data.session.completed, true);
    assert.equal(Date.parse(data.session.endTime), Date.UTC(2026, 0, 15, 9, 0, 3));
    assert.equal(data.task, TASK);
    assert.deepEqual(f.tracking, [`start ${TASK.path}`, `stop ${TASK.path} 2026-01-15T09:00:03.000Z`]);
    assert.equal(pomodoro.status().nextSessionType, 'short-break');
    assert.equal(pomodoro.status().totalPomodoros, 1);

    await clock.advance(1000);
    await f.emitted(3);
    const status = pomodoro.status();
    assert.equal(status.isRunning, true);
    assert.equal(status.currentSession?.type, 'short-break');
    assert.equal(status.timeRemaining, 300);
    assert.deepEqual(f.names(), ['pomodoro.started', 'pomodoro.completed', 'pomodoro.started']);
    assert.equal((f.events[2]?.data as { task: unknown }).task, null);
    await pomodoro.close();
  });

  it('takes a long break after the interval of completed work sessions', async () => {
    const clock = new ManualClock();
    const f = fixture(dir, clock, { longBreakInterval: 2, autoStartBreaks: false });
    const pomodoro = await f.open();
    await pomodoro.start({ minutes: 0.05 });
    await clock.advance(3000);
    await f.emitted(2);
    assert.equal(pomodoro.status().nextSessionType, 'short-break');
    assert.equal(pomodoro.status().timeRemaining, 300);
    await clock.advance(5000);
    assert.equal(pomodoro.status().isRunning, false, 'no auto-start');
    await pomodoro.start({ minutes: 0.05 });
    await clock.advance(3000);
    await f.emitted(4);
    assert.equal(pomodoro.status().nextSessionType, 'long-break');
    assert.equal(pomodoro.status().timeRemaining, 900);
    await pomodoro.close();
  });

  it('pauses and resumes: paused time does not count, tracking follows', async () => {
    const clock = new ManualClock();
    const f = fixture(dir, clock);
    const pomodoro = await f.open();
    await pomodoro.start({ taskPath: TASK.path, minutes: 1 });
    await clock.advance(20_000);
    assert.deepEqual(await pomodoro.pause(), { timeRemaining: 40 });
    await assert.rejects(pomodoro.pause(), /No running pomodoro session to pause/);
    await assert.rejects(pomodoro.start({}), /paused/);
    await clock.advance(600_000);
    assert.equal(f.names().includes('pomodoro.completed'), false);
    assert.deepEqual(await pomodoro.resume(), { timeRemaining: 40 });
    await assert.rejects(pomodoro.resume(), /^Error: Pomodoro session is already running$|already running/);
    await clock.advance(39_999);
    assert.equal(f.names().includes('pomodoro.completed'), false);
    await clock.advance(1);
    await f.emitted(2);
    await waitFor(() => f.tracking.length === 4, 2000, 2);
    assert.deepEqual(f.names(), ['pomodoro.started', 'pomodoro.completed']);
    const session = pomodoro.sessions({}).sessions[0];
    assert.equal(session?.activePeriods.length, 2);
    // start, stop (pause), start (resume), stop (complete)
    await pomodoro.close();
  });

  it('stop interrupts, records history as not completed and resets', async () => {
    const clock = new ManualClock();
    const f = fixture(dir, clock);
    const pomodoro = await f.open();
    await assert.rejects(pomodoro.stop(), /No active pomodoro session to stop/);
    await assert.rejects(pomodoro.resume(), /No paused session to resume/);
    await pomodoro.start({ taskPath: TASK.path });
    await assert.rejects(pomodoro.start({}), /already running\. Stop or pause/);
    await clock.advance(60_000);
    await pomodoro.stop();
    assert.deepEqual(f.names(), ['pomodoro.started', 'pomodoro.interrupted']);
    const interrupted = f.events[1]?.data as { session: { interrupted: boolean; endTime: string } };
    assert.equal(interrupted.session.interrupted, true);
    assert.deepEqual(f.tracking, [`start ${TASK.path}`, `stop ${TASK.path} 2026-01-15T09:01:00.000Z`]);
    const status = pomodoro.status();
    assert.deepEqual(
      { isRunning: status.isRunning, timeRemaining: status.timeRemaining, session: status.currentSession },
      { isRunning: false, timeRemaining: 1500, session: undefined },
    );
    const history = pomodoro.sessions({});
    assert.equal(history.total, 1);
    assert.equal(history.sessions[0]?.completed, false);
    assert.deepEqual(pomodoro.stats(), {
      pomodorosCompleted: 0,
      currentStreak: 0,
      totalMinutes: 0,
      averageSessionLength: 0,
      completionRate: 0,
    });
    await clock.advance(3_600_000);
    assert.equal(f.events.length, 2, 'no timer left behind');
    await pomodoro.close();
  });

  it('rejects an unknown task before anything changes and clamps durations', async () => {
    const clock = new ManualClock();
    const f = fixture(dir, clock);
    const pomodoro = await f.open();
    await assert.rejects(pomodoro.start({ taskPath: 'nope.md' }), /Task not found/);
    assert.equal(pomodoro.status().isRunning, false);
    for (const [minutes, seconds] of [
      [0, 1],
      [-5, 1],
      [500, 7200],
      [0.35, 21],
    ] as const) {
      const { session } = await pomodoro.start({ minutes });
      assert.equal(Math.round(session.plannedDuration * 60), seconds, `${minutes} min`);
      await pomodoro.stop();
    }
    await pomodoro.close();
  });

  it('resumes a running session after a restart with the right remaining time', async () => {
    const clock = new ManualClock();
    const first = fixture(dir, clock);
    const a = await first.open();
    await a.start({ taskPath: TASK.path, minutes: 1 });
    await clock.advance(15_000);
    await a.close();
    const saved = JSON.parse(await readFile(path.join(dir, 'pomodoro.json'), 'utf8'));
    assert.equal(saved.pomodoroState.isRunning, true);

    await clock.advance(5_000); // down for 5 s: the session keeps running in wall-clock time
    const second = fixture(dir, clock);
    const b = await second.open();
    await b.activate();
    assert.equal(b.status().timeRemaining, 40);
    await clock.advance(39_999);
    assert.deepEqual(second.names(), []);
    await clock.advance(1);
    await second.emitted(1);
    assert.deepEqual(second.names(), ['pomodoro.completed']);
    await b.close();
  });

  it('completes at once after a restart when the time passed while down, ending when it was due', async () => {
    const clock = new ManualClock();
    const a = await fixture(dir, clock).open();
    await a.start({ taskPath: TASK.path, minutes: 1 });
    await a.close();
    await clock.advance(10 * 60_000);
    const f = fixture(dir, clock);
    const b = await f.open();
    await b.activate();
    assert.deepEqual(f.names(), ['pomodoro.completed']);
    const session = (f.events[0]?.data as { session: { endTime: string } }).session;
    assert.equal(Date.parse(session.endTime), Date.UTC(2026, 0, 15, 9, 1, 0));
    assert.deepEqual(f.tracking, [`stop ${TASK.path} 2026-01-15T09:01:00.000Z`]);
    assert.equal(b.sessions({}).sessions[0]?.completed, true);
    await b.close();
  });

  it('keeps a paused session paused across a restart', async () => {
    const clock = new ManualClock();
    const a = await fixture(dir, clock).open();
    await a.start({ minutes: 1 });
    await clock.advance(10_000);
    await a.pause();
    await a.close();
    await clock.advance(3_600_000);
    const f = fixture(dir, clock);
    const b = await f.open();
    await b.activate();
    assert.equal(b.status().isRunning, false);
    assert.equal(b.status().timeRemaining, 50);
    await b.resume();
    await clock.advance(50_000);
    await f.emitted(1);
    assert.deepEqual(f.names(), ['pomodoro.completed']);
    await b.close();
  });

  it('filters history by local day and keeps the most recent N', async () => {
    const clock = new ManualClock();
    const f = fixture(dir, clock, { autoStartBreaks: false });
    const pomodoro = await f.open();
    for (let i = 1; i <= 3; i++) {
      await pomodoro.start({ minutes: 0.05 });
      await clock.advance(3000);
      await f.emitted(2 * i);
    }
    const all = pomodoro.sessions({});
    assert.equal(all.total, 3);
    const last = pomodoro.sessions({ limit: 2 });
    assert.equal(last.total, 3);
    assert.deepEqual(
      last.sessions.map((s) => s.id),
      all.sessions.slice(1).map((s) => s.id),
    );
    assert.equal(pomodoro.sessions({ date: '2020-01-01' }).total, 0);
    const stats = pomodoro.stats();
    assert.equal(stats.pomodorosCompleted, 3);
    assert.equal(stats.currentStreak, 3);
    assert.equal(stats.completionRate, 100);
    await pomodoro.close();
  });
});
