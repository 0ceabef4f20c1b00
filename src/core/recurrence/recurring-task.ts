/** Reading a task's recurrence fields as the engine's state. */
import type { TaskInfo } from '../tasks/task-info.js';
import { normaliseAnchor, type RecurringState } from './schedule.js';

export type RecurringTask = TaskInfo & { recurrence: string };

export function isRecurring(task: TaskInfo): task is RecurringTask {
  return typeof task.recurrence === 'string' && task.recurrence.trim() !== '';
}

export function recurringState(task: RecurringTask): RecurringState {
  return {
    recurrence: task.recurrence,
    anchor: normaliseAnchor(task.recurrence_anchor),
    scheduled: task.scheduled,
    due: task.due,
    dateCreated: task.dateCreated,
    complete: task.complete_instances ?? [],
    skipped: task.skipped_instances ?? [],
  };
}
