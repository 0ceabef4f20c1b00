/**
 * Fires `reminder.triggered` when a task's reminder becomes due: one Clock timer per upcoming
 * reminder, re-planned whenever a task changes (every task.* event, which covers API writes and
 * edits by other programs alike). Each occurrence is handled exactly once; the bookkeeping in the
 * data dir carries that across restarts.
 *
 * Catch-up rule: a reminder that is already due when it is planned (at start, after the server
 * was down, or when an edit brings it into the past) fires at once if it is at most 15 minutes
 * late, and is skipped (logged and recorded) otherwise, so a restart after a long outage does not
 * flood receivers with stale reminders.
 */
import type { Clock, TimerHandle } from '../clock.js';
import type { EventBus } from '../events/bus.js';
import type { Logger } from '../logger.js';
import type { Reminder, TaskInfo } from '../tasks/task-info.js';
import { reminderKey, type ReminderBookkeeping, type ReminderOutcome } from './bookkeeping.js';
import { reminderFireTime, reminderMessage } from './fire-time.js';

export const CATCH_UP_WINDOW_MS = 15 * 60 * 1000;

/** Tasks planned between two yields to the event loop while start() catches up. */
const PLAN_CHUNK = 50;

/** What the scheduler reads from tasks: the index, never the files. */
export interface ReminderTaskSource {
  /** Whether a task is indexed at this path. */
  has(taskPath: string): boolean;
  /** Paths of the tasks that have reminders (at least the key); the others need no planning. */
  pathsWith(field: 'reminders'): string[];
  find(taskPath: string): TaskInfo | undefined;
}

export interface ReminderSchedulerOptions {
  clock: Clock;
  events: EventBus;
  log: Logger;
  tasks: ReminderTaskSource;
  bookkeeping: ReminderBookkeeping;
  /** The notification channel reported in events (TaskNotes' `notificationType`). */
  notificationType?: string;
}

interface Planned {
  task: string;
  reminder: Reminder;
  fireTime: number;
}

interface Armed {
  task: string;
  timer: TimerHandle;
}

export class ReminderScheduler {
  private readonly armed = new Map<string, Armed>();
  /** Armed keys per task path, so planning one task does not walk every armed reminder. */
  private readonly armedByTask = new Map<string, Set<string>>();
  private readonly unsubscribe: Array<() => void> = [];
  /** Counts reminders skipped while start() plans every task (undefined otherwise). */
  private skippedAtStart: number | undefined;

  constructor(private readonly options: ReminderSchedulerOptions) {}

  /**
   * Follows task changes from now on, then plans the reminders of every existing task, in chunks
   * that yield to the event loop: a start serves requests while it catches up (a 10,000-task
   * vault has hundreds of tasks with reminders). Each chunk looks its tasks up again, so a task
   * changed meanwhile is planned as it is now. Resolves when every task is planned.
   */
  async start(): Promise<void> {
    const { events, bookkeeping } = this.options;
    const replan = ({ data }: { data: { task: TaskInfo } }): void => this.plan(data.task);
    for (const name of [
      'task.created',
      'task.completed',
      'task.archived',
      'task.unarchived',
      'recurring.instance.completed',
      'recurring.instance.skipped',
    ] as const) {
      this.unsubscribe.push(events.on(name, replan));
    }
    this.unsubscribe.push(
      events.on('task.updated', ({ data }) => {
        if (data.previous.path !== data.task.path) this.moved(data.previous.path, data.task.path);
        this.plan(data.task);
      }),
      events.on('task.deleted', ({ data }) => this.forgetTask(data.task.path)),
    );

    const { tasks } = this.options;
    // Records of tasks deleted while the server was down are no longer needed.
    const gone = [...bookkeeping.tasks()].filter((t) => !tasks.has(t));
    bookkeeping.forget(gone.flatMap((t) => bookkeeping.keysOf(t)));
    const withReminders = tasks.pathsWith('reminders');
    // Tasks with records but no reminders any more are planned too, which drops their records.
    const planned = new Set(withReminders);
    const dropped = [...bookkeeping.tasks()].filter((t) => tasks.has(t) && !planned.has(t));
    const queue = [...withReminders, ...dropped];
    // A start after a long outage can skip many reminders: one summary line, the details at debug.
    this.skippedAtStart = 0;
    for (let i = 0; i < queue.length; i += PLAN_CHUNK) {
      if (i > 0) await new Promise((resolve) => setImmediate(resolve));
      if (this.unsubscribe.length === 0) return; // stopped meanwhile
      for (const taskPath of queue.slice(i, i + PLAN_CHUNK)) {
        const task = tasks.find(taskPath);
        if (task) this.plan(task);
      }
    }
    if (this.skippedAtStart > 0) {
      this.options.log.info(
        { skipped: this.skippedAtStart },
        'reminders skipped at start: they became due more than 15 minutes ago',
      );
    }
    this.skippedAtStart = undefined;
  }

  /** Stops following tasks and cancels the timers (the records are in the store already). */
  stop(): void {
    for (const off of this.unsubscribe.splice(0)) off();
    for (const { timer } of this.armed.values()) timer.cancel();
    this.armed.clear();
    this.armedByTask.clear();
  }

  /** Upcoming reminders (for diagnostics and tests). */
  pending(): number {
    return this.armed.size;
  }

  private planned(task: TaskInfo): Map<string, Planned> {
    const out = new Map<string, Planned>();
    for (const reminder of task.reminders ?? []) {
      if (!reminder || typeof reminder.id !== 'string') continue;
      const fireTime = reminderFireTime(task, reminder);
      if (fireTime === null) {
        this.options.log.debug({ task: task.path, reminder: reminder.id }, 'reminder has no usable time');
        continue;
      }
      out.set(reminderKey(task.path, reminder.id, fireTime), { task: task.path, reminder, fireTime });
    }
    return out;
  }

  /** Brings one task's timers and records in line with its current reminders. */
  private plan(task: TaskInfo): void {
    const { bookkeeping, clock } = this.options;
    const wanted = this.planned(task);
    for (const key of this.armedByTask.get(task.path) ?? []) {
      if (!wanted.has(key)) this.disarm(key);
    }
    // Records of reminders that were removed or moved; keeps the table bounded by the vault.
    bookkeeping.forget(bookkeeping.keysOf(task.path).filter((k) => !wanted.has(k)));

    const now = clock.now();
    for (const [key, item] of wanted) {
      if (bookkeeping.has(key) || this.armed.has(key)) continue;
      if (item.fireTime > now) {
        const timer = clock.setTimer(item.fireTime - now, () => this.due(key, item));
        this.arm(key, { task: item.task, timer });
      } else if (now - item.fireTime <= CATCH_UP_WINDOW_MS) {
        this.fire(key, item);
      } else {
        const details = {
          task: item.task,
          reminder: item.reminder.id,
          dueAt: new Date(item.fireTime).toISOString(),
        };
        if (this.skippedAtStart === undefined) {
          this.options.log.info(details, 'reminder skipped: it became due more than 15 minutes ago');
        } else {
          this.skippedAtStart++;
          this.options.log.debug(details, 'reminder skipped: it became due more than 15 minutes ago');
        }
        this.record(item, 'skipped');
      }
    }
  }

  private arm(key: string, armed: Armed): void {
    this.armed.set(key, armed);
    let keys = this.armedByTask.get(armed.task);
    if (!keys) this.armedByTask.set(armed.task, (keys = new Set()));
    keys.add(key);
  }

  /** Cancels an armed timer (no-op when it already fired) and forgets it. */
  private disarm(key: string): void {
    const armed = this.armed.get(key);
    if (!armed) return;
    armed.timer.cancel();
    this.armed.delete(key);
    const keys = this.armedByTask.get(armed.task);
    keys?.delete(key);
    if (keys?.size === 0) this.armedByTask.delete(armed.task);
  }

  private due(key: string, item: Planned): void {
    this.disarm(key);
    this.fire(key, item);
  }

  private fire(key: string, item: Planned): void {
    if (this.options.bookkeeping.has(key)) return;
    // The payload shows the task as it is now (the index is current; the key proves the
    // reminder and its time are unchanged, since any change re-plans under a new key).
    const task = this.options.tasks.find(item.task);
    if (!task) return;
    this.options.events.emit('reminder.triggered', {
      task,
      reminder: item.reminder,
      notificationTime: new Date(item.fireTime).toISOString(),
      message: reminderMessage(task, item.reminder),
      notificationType: this.options.notificationType ?? 'system',
    });
    // Recorded in the turn of the event, so both are committed together (bookkeeping.ts).
    this.record(item, 'fired');
  }

  private record(item: Planned, outcome: ReminderOutcome): void {
    this.options.bookkeeping.record({
      task: item.task,
      reminder: item.reminder.id,
      fireTime: item.fireTime,
      outcome,
      at: this.options.clock.now(),
    });
  }

  private moved(from: string, to: string): void {
    this.forgetTimers(from);
    this.options.bookkeeping.rename(from, to);
  }

  private forgetTask(taskPath: string): void {
    this.forgetTimers(taskPath);
    const { bookkeeping } = this.options;
    bookkeeping.forget(bookkeeping.keysOf(taskPath));
  }

  private forgetTimers(taskPath: string): void {
    for (const key of this.armedByTask.get(taskPath) ?? []) this.disarm(key);
  }
}
