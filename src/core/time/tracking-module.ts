/**
 * Wires time tracking, the pomodoro and the reminder scheduler onto the task service, the bus and
 * the data dir. They are built together because the pomodoro drives time tracking on its task.
 *
 * Construction loads state without side effects; `activate()` (once every event subscriber, such
 * as the webhook engine, is wired) completes a pomodoro that ran out while the server was down,
 * arms the timers and fires reminders that became due during the downtime.
 */
import type { Clock } from '../clock.js';
import type { EventBus } from '../events/bus.js';
import type { Store } from '../store/database.js';
import type { Logger } from '../logger.js';
import { pomodoroSettingsOf } from '../pomodoro/model.js';
import { PomodoroService } from '../pomodoro/pomodoro-service.js';
import { ReminderBookkeeping } from '../reminders/bookkeeping.js';
import { ReminderScheduler } from '../reminders/reminder-scheduler.js';
import type { TaskService } from '../tasks/task-service.js';
import { TimeService } from './time-service.js';

export interface TrackingModule {
  time: TimeService;
  pomodoro: PomodoroService;
  reminders: ReminderScheduler;
  activate(): Promise<void>;
  /** Cancels every timer and persists pomodoro state (reminder records are in the store). */
  stop(): Promise<void>;
}

export async function createTracking(deps: {
  tasks: TaskService;
  events: EventBus;
  clock: Clock;
  log: Logger;
  dataDir: string;
  store: Store;
}): Promise<TrackingModule> {
  const { tasks, events, clock, log, dataDir, store } = deps;
  const time = new TimeService(tasks, events, clock);
  const pomodoro = await PomodoroService.open({
    dataDir,
    clock,
    events,
    log,
    // Read at each transition, so an edit of data.json applies from the next session on.
    settings: () => pomodoroSettingsOf(tasks.settings()),
    tasks: {
      find: (taskPath) => tasks.find(taskPath),
      startTracking: async (taskPath) => void (await time.start(taskPath)),
      stopTracking: async (taskPath, at) => void (await time.stop(taskPath, at)),
    },
  });
  tasks.addMoveHook((from, to) => {
    pomodoro
      .followMove(from, to)
      .catch((err: unknown) => log.error({ err }, 'pomodoro: following a moved task failed'));
  });
  const reminders = new ReminderScheduler({
    clock,
    events,
    log,
    tasks,
    bookkeeping: await ReminderBookkeeping.open(store, dataDir, log),
  });
  return {
    time,
    pomodoro,
    reminders,
    async activate() {
      // Not awaited: the reminder catch-up runs in chunks beside the first requests.
      reminders.start().catch((err: unknown) => log.error({ err }, 'planning reminders failed'));
      await pomodoro.activate();
    },
    async stop() {
      await pomodoro.close();
      reminders.stop();
    },
  };
}
