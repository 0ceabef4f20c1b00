/**
 * Wires recurrence into the task service and the bus: the command service, the listeners that
 * reconcile occurrence notes and report skips, the PUT adjustment for rule changes, and a
 * toggle-status hook so that a toggle answers only after its occurrence's parent is reconciled.
 */
import type { Clock } from '../clock.js';
import type { EventBus } from '../events/bus.js';
import type { Logger } from '../logger.js';
import type { TaskService } from '../tasks/task-service.js';
import { RecurrenceService } from './recurrence-service.js';
import { subscribeRecurrenceListeners } from './recurrence-listeners.js';
import { recurrenceChangeAdjuster } from './rule-change-adjuster.js';

export interface RecurrenceModule {
  service: RecurrenceService;
  /** Unsubscribes and waits for reconciliations in progress. */
  stop(): Promise<void>;
}

export function createRecurrence(deps: {
  tasks: TaskService;
  events: EventBus;
  clock: Clock;
  log: Logger;
}): RecurrenceModule {
  const service = new RecurrenceService(deps);
  const unsubscribe = subscribeRecurrenceListeners(deps.events, service, (status) =>
    deps.tasks.isCompletedStatus(status),
  );
  deps.tasks.addUpdateAdjuster(recurrenceChangeAdjuster);
  deps.tasks.addToggleHook(() => service.settled());
  return {
    service,
    async stop() {
      unsubscribe();
      await service.settled();
    },
  };
}
