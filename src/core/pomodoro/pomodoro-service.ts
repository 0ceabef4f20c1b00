/**
 * The pomodoro state machine (as in the TaskNotes plugin) with a deadline timer on the
 * injected Clock, so a session completes on time with no request arriving. State and history are
 * saved to `<data dir>/pomodoro.json` on every transition; a session that was running when the
 * server stopped keeps running in wall-clock time (its open active period stays open) and is
 * resumed, or completed at once, by `activate()` after a restart.
 *
 * Event payloads carry copies of the session: the live one keeps changing (a pause closes a
 * period) while a subscriber may still hold the event.
 */
import path from 'node:path';
import type { Clock, TimerHandle } from '../clock.js';
import { conflict, notFound } from '../errors.js';
import type { EventBus } from '../events/bus.js';
import type { Logger } from '../logger.js';
import { JsonStateFile } from '../state/json-file.js';
import type { TaskInfo } from '../tasks/task-info.js';
import { localDate as localDateKey, localIsoTimestamp as toLocalIso } from '../tasks/local-time.js';
import { KeyedLock } from '../vault/keyed-lock.js';
import {
  PomodoroFileSchema,
  breakSeconds,
  clampSeconds,
  completionInstant,
  remainingMs,
  toHistoryEntry,
  type HistoryEntry,
  type PomodoroFile,
  type PomodoroSession,
  type PomodoroSettings,
  type PomodoroState,
  type SessionType,
} from './model.js';
import { completedWorkOn, dayStats, listSessions, type DayStats } from './stats.js';

/** What the pomodoro needs from tasks: lookups for event payloads and time tracking. */
export interface PomodoroTaskPort {
  find(taskPath: string): TaskInfo | undefined;
  startTracking(taskPath: string): Promise<void>;
  stopTracking(taskPath: string, at: number): Promise<void>;
}

export interface PomodoroServiceOptions {
  dataDir: string;
  clock: Clock;
  events: EventBus;
  log: Logger;
  tasks: PomodoroTaskPort;
  settings: () => PomodoroSettings;
}

export const ALREADY_RUNNING =
  'Pomodoro session is already running. Stop or pause the current session first.';
export const PAUSED_EXISTS = 'A pomodoro session is paused. Resume or stop it first.';
export const NOTHING_TO_STOP = 'No active pomodoro session to stop';
export const NOTHING_TO_PAUSE = 'No running pomodoro session to pause';
export const RESUME_RUNNING = 'Pomodoro session is already running';
export const NOTHING_TO_RESUME = 'No paused session to resume';

/** The messages of successful commands, as the HTTP routes and MCP tools answer them. */
export const POMODORO_MESSAGES = {
  started: 'Pomodoro session started',
  stopped: 'Pomodoro session stopped and reset',
  paused: 'Pomodoro session paused',
  resumed: 'Pomodoro session resumed',
} as const;

/** A saved session older than this is stale, not resumable (reference load rule). */
const STALE_MS = 24 * 60 * 60 * 1000;
/** Breaks (and auto-started work) begin this long after the previous session ends. */
const AUTO_START_DELAY_MS = 1000;

export interface PomodoroStatus extends DayTotals {
  isRunning: boolean;
  currentSession?: PomodoroSession;
  timeRemaining: number;
  nextSessionType?: SessionType;
}
interface DayTotals {
  totalPomodoros: number;
  currentStreak: number;
  totalMinutesToday: number;
}

export class PomodoroService {
  private timer: TimerHandle | undefined;
  private autoStart: TimerHandle | undefined;
  private closed = false;
  // One transition at a time: a timer completion never interleaves with a request.
  private readonly serial = new KeyedLock();

  private constructor(
    private readonly options: PomodoroServiceOptions,
    private readonly file: JsonStateFile<typeof PomodoroFileSchema>,
    private data: PomodoroFile,
  ) {}

  static async open(options: PomodoroServiceOptions): Promise<PomodoroService> {
    const file = new JsonStateFile(path.join(options.dataDir, 'pomodoro.json'), PomodoroFileSchema);
    const workSeconds = clampSeconds(options.settings().workDuration);
    const data = await file.load(() => ({
      version: 1 as const,
      pomodoroState: { isRunning: false, timeRemaining: workSeconds },
      lastPomodoroDate: null,
      lastSelectedTaskPath: null,
      pomodoroHistory: [],
    }));
    const session = data.pomodoroState.currentSession;
    if (session && options.clock.now() - Date.parse(session.startTime) > STALE_MS) {
      options.log.warn({ session: session.id }, 'dropping a pomodoro session started over 24 hours ago');
      data.pomodoroState = { isRunning: false, timeRemaining: workSeconds };
    }
    if (!data.pomodoroState.currentSession) data.pomodoroState.isRunning = false;
    return new PomodoroService(options, file, data);
  }

  private get state(): PomodoroState {
    return this.data.pomodoroState;
  }

  private get now(): number {
    return this.options.clock.now();
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    return this.serial.run('pomodoro', work);
  }

  /**
   * Arms the timer of a session restored from disk, completing it at once when its time passed
   * while the server was down. Called once every event subscriber is wired.
   */
  activate(): Promise<void> {
    return this.exclusive(async () => {
      if (this.state.isRunning) await this.onDeadline();
    });
  }

  /**
   * A task the service moved (renamed, archived into another folder): the session and the last
   * selected task follow it, or the session's tracking would be stopped on a path with no task
   * and its time entry left open.
   */
  followMove(from: string, to: string): Promise<void> {
    return this.exclusive(async () => {
      const session = this.state.currentSession;
      const moved = session?.taskPath === from;
      if (moved) session.taskPath = to;
      const selected = this.data.lastSelectedTaskPath === from;
      if (selected) this.data.lastSelectedTaskPath = to;
      if (moved || selected) await this.save();
    });
  }

  /** Cancels timers and waits for pending saves; the running session stays saved as running. */
  async close(): Promise<void> {
    this.closed = true;
    // Let a transition in progress finish first: it may arm a timer that must then be cancelled.
    await this.serial.idle();
    this.timer?.cancel();
    this.autoStart?.cancel();
    await this.file.flush();
  }

  start(input: {
    taskPath?: string;
    minutes?: number;
  }): Promise<{ session: PomodoroSession; task: TaskInfo | null }> {
    return this.exclusive(async () => {
      const task = input.taskPath === undefined ? null : this.options.tasks.find(input.taskPath);
      if (task === undefined) throw notFound('Task not found');
      if (this.state.currentSession) throw conflict(this.state.isRunning ? ALREADY_RUNNING : PAUSED_EXISTS);
      // Without a custom duration a work session is always the work length, even when a break
      // was due: starting work skips the break (reference rule).
      const seconds = clampSeconds(input.minutes ?? this.options.settings().workDuration);
      const session = this.begin('work', seconds, task?.path);
      if (task) this.data.lastSelectedTaskPath = task.path;
      await this.save();
      if (task) await this.track('start', task.path);
      const payload = { session: structuredClone(session), task: task ? this.taskOf(task.path) : null };
      this.options.events.emit('pomodoro.started', payload);
      return payload;
    });
  }

  pause(): Promise<{ timeRemaining: number }> {
    return this.exclusive(async () => {
      const session = this.state.currentSession;
      if (!session || !this.state.isRunning) throw conflict(NOTHING_TO_PAUSE);
      const now = this.now;
      closePeriod(session, now);
      this.timer?.cancel();
      this.state.isRunning = false;
      this.state.timeRemaining = seconds(remainingMs(session, now));
      await this.save();
      if (session.taskPath) await this.track('stop', session.taskPath, now);
      return { timeRemaining: this.state.timeRemaining };
    });
  }

  resume(): Promise<{ timeRemaining: number }> {
    return this.exclusive(async () => {
      if (this.state.isRunning) throw conflict(RESUME_RUNNING);
      const session = this.state.currentSession;
      if (!session) throw conflict(NOTHING_TO_RESUME);
      session.activePeriods.push({ startTime: toLocalIso(this.now) });
      this.state.isRunning = true;
      this.arm();
      await this.save();
      if (session.taskPath) await this.track('start', session.taskPath);
      return { timeRemaining: this.state.timeRemaining };
    });
  }

  /** Interrupts the running or paused session. */
  stop(): Promise<void> {
    return this.exclusive(async () => {
      const session = this.state.currentSession;
      if (!session) throw conflict(NOTHING_TO_STOP);
      const wasRunning = this.state.isRunning;
      const now = this.now;
      closePeriod(session, now);
      session.interrupted = true;
      session.endTime = toLocalIso(now);
      this.timer?.cancel();
      this.autoStart?.cancel();
      this.data.pomodoroHistory.push(toHistoryEntry(session, false));
      this.data.pomodoroState = { isRunning: false, timeRemaining: this.workSeconds() };
      await this.save();
      // Reference order: the interruption first, then the task's tracking stops.
      this.options.events.emit('pomodoro.interrupted', {
        session: structuredClone(session),
        task: this.taskOf(session.taskPath),
      });
      if (wasRunning && session.taskPath) await this.track('stop', session.taskPath, now);
    });
  }

  status(): PomodoroStatus {
    const { isRunning, currentSession, nextSessionType } = this.state;
    const timeRemaining =
      currentSession && isRunning ? seconds(remainingMs(currentSession, this.now)) : this.state.timeRemaining;
    const today = dayStats(this.data.pomodoroHistory, localDateKey(this.now));
    return {
      isRunning,
      ...(currentSession && { currentSession }),
      timeRemaining,
      ...(nextSessionType && { nextSessionType }),
      totalPomodoros: today.pomodorosCompleted,
      currentStreak: today.currentStreak,
      totalMinutesToday: today.totalMinutes,
    };
  }

  sessions(filter: { date?: string; limit?: number }): { sessions: HistoryEntry[]; total: number } {
    return listSessions(this.data.pomodoroHistory, filter);
  }

  /** Statistics of one local day (`YYYY-MM-DD`), today by default. */
  stats(day?: string): DayStats {
    return dayStats(this.data.pomodoroHistory, day ?? localDateKey(this.now));
  }

  private workSeconds(): number {
    return clampSeconds(this.options.settings().workDuration);
  }

  private begin(type: SessionType, durationSeconds: number, taskPath: string | undefined): PomodoroSession {
    const now = this.now;
    const session: PomodoroSession = {
      id: String(now),
      ...(taskPath !== undefined && { taskPath }),
      startTime: toLocalIso(now),
      plannedDuration: durationSeconds / 60,
      type,
      completed: false,
      activePeriods: [{ startTime: toLocalIso(now) }],
    };
    this.autoStart?.cancel();
    this.data.pomodoroState = { isRunning: true, currentSession: session, timeRemaining: durationSeconds };
    this.arm();
    return session;
  }

  private arm(): void {
    this.timer?.cancel();
    const session = this.state.currentSession;
    if (!session || !this.state.isRunning) return;
    this.timer = this.options.clock.setTimer(remainingMs(session, this.now), () => {
      if (this.closed) return;
      void this.exclusive(() => this.onDeadline()).catch((err: unknown) =>
        this.options.log.error({ err }, 'pomodoro completion failed'),
      );
    });
  }

  private async onDeadline(): Promise<void> {
    const session = this.state.currentSession;
    if (!session || !this.state.isRunning) return;
    // A timer that fires early (clock adjustments) re-arms instead of completing.
    if (remainingMs(session, this.now) > 0) return this.arm();
    await this.complete(session);
  }

  private async complete(session: PomodoroSession): Promise<void> {
    const now = this.now;
    const end = completionInstant(session, now);
    closePeriod(session, end);
    session.completed = true;
    session.endTime = toLocalIso(end);
    if (session.type === 'work' && session.taskPath) await this.track('stop', session.taskPath, end);

    const settings = this.options.settings();
    let next: SessionType = 'work';
    if (session.type === 'work') {
      const doneToday = completedWorkOn(this.data.pomodoroHistory, localDateKey(now)) + 1;
      next = doneToday % Math.max(1, settings.longBreakInterval) === 0 ? 'long-break' : 'short-break';
    }
    this.data.pomodoroHistory.push(toHistoryEntry(session, true));
    this.data.pomodoroState = {
      isRunning: false,
      timeRemaining: next === 'work' ? this.workSeconds() : breakSeconds(next, settings),
      nextSessionType: next,
    };
    await this.save();
    this.options.events.emit('pomodoro.completed', {
      session: structuredClone(session),
      task: this.taskOf(session.taskPath),
    });

    const autoStart = next === 'work' ? settings.autoStartWork : settings.autoStartBreaks;
    if (autoStart) {
      this.autoStart = this.options.clock.setTimer(AUTO_START_DELAY_MS, () => {
        if (this.closed) return;
        void this.exclusive(() => this.autoStartNext(next)).catch((err: unknown) =>
          this.options.log.error({ err }, 'pomodoro auto-start failed'),
        );
      });
    }
  }

  private async autoStartNext(type: SessionType): Promise<void> {
    // Someone started a session by hand during the delay: theirs wins.
    if (this.state.currentSession) return;
    const settings = this.options.settings();
    const taskPath = type === 'work' ? (this.data.lastSelectedTaskPath ?? undefined) : undefined;
    const task = taskPath === undefined ? undefined : this.options.tasks.find(taskPath);
    const duration = type === 'work' ? this.workSeconds() : breakSeconds(type, settings);
    const session = this.begin(type, duration, task?.path);
    await this.save();
    if (task) await this.track('start', task.path);
    // Breaks announce themselves too: the interface's pomodoro.started is "a session begins", and a
    // break that later emits pomodoro.completed should have been announced.
    this.options.events.emit('pomodoro.started', {
      session: structuredClone(session),
      task: this.taskOf(task?.path),
    });
  }

  /** Time tracking is a side effect: its failure ("already active", a deleted task) never blocks. */
  private async track(action: 'start' | 'stop', taskPath: string, at = this.now): Promise<void> {
    try {
      if (action === 'start') await this.options.tasks.startTracking(taskPath);
      else await this.options.tasks.stopTracking(taskPath, at);
    } catch (err) {
      this.options.log.debug({ err, taskPath }, `pomodoro could not ${action} time tracking`);
    }
  }

  private taskOf(taskPath: string | undefined): TaskInfo | null {
    return taskPath === undefined ? null : (this.options.tasks.find(taskPath) ?? null);
  }

  private save(): Promise<void> {
    this.data.lastPomodoroDate = localDateKey(this.now);
    return this.file.save(this.data);
  }
}

function closePeriod(session: PomodoroSession, at: number): void {
  const open = session.activePeriods.at(-1);
  if (open && !open.endTime) open.endTime = toLocalIso(at);
}

/** Remaining milliseconds as the whole seconds a countdown shows. */
const seconds = (ms: number): number => Math.ceil(ms / 1000);
