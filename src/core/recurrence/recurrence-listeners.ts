/**
 * Bus listeners that keep recurring tasks consistent whatever changed a note (API, PUT, toggle,
 * or another program through the watcher):
 *
 * - an occurrence note moving into a completed status completes its instance on the parent and
 *   emits recurring.instance.completed (the interface's first recurring rule); leaving it reopens the instance;
 * - days newly added to a recurring task's `skipped_instances` by an edit emit
 *   recurring.instance.skipped for virtual instances only (docs/api-decisions.md, rules 2 and 3). The service's
 *   own skip writes are silent, so the skip route is never reported twice.
 */
import type { EventBus } from '../events/bus.js';
import type { TaskInfo } from '../tasks/task-info.js';
import { addedDays } from './instances.js';
import { isOccurrenceNote } from './occurrence-note.js';
import type { RecurrenceService } from './recurrence-service.js';
import { isRecurring } from './recurring-task.js';

export function subscribeRecurrenceListeners(
  events: EventBus,
  recurrence: RecurrenceService,
  isCompletedStatus: (status: string) => boolean,
): () => void {
  const offCompleted = events.on('task.completed', ({ data }) => {
    if (isOccurrenceNote(data.task)) recurrence.track(recurrence.occurrenceCompleted(data.task));
  });
  const offUpdated = events.on('task.updated', ({ data }) => {
    const { task, previous } = data;
    if (isOccurrenceNote(task) && isCompletedStatus(previous.status) && !isCompletedStatus(task.status)) {
      recurrence.track(recurrence.occurrenceReopened(task));
    }
    const skipped = newlySkippedVirtualDays(previous, task, recurrence);
    if (skipped.length === 0) return;
    // Emitted after the current dispatch, so every subscriber sees task.updated first.
    recurrence.track(
      Promise.resolve().then(() => {
        for (const date of skipped) events.emit('recurring.instance.skipped', { task, date });
      }),
    );
  });
  return () => {
    offCompleted();
    offUpdated();
  };
}

function newlySkippedVirtualDays(
  previous: TaskInfo,
  task: TaskInfo,
  recurrence: RecurrenceService,
): string[] {
  if (!isRecurring(task)) return [];
  return addedDays(previous.skipped_instances, task.skipped_instances).filter(
    (day) => !recurrence.hasOccurrence(task, day),
  );
}
