/**
 * `GET /api/stats` (as in the TaskNotes plugin), computed over every task. `overdue` uses the LOCAL
 * clock (docs/api-decisions.md; unlike the TaskNotes plugin's UTC string comparison): a date-only due is overdue once
 * its local day is over, a date-time due once its time has passed.
 */
import type { TaskInfo } from '../tasks/task-info.js';
import { localDay } from '../recurrence/day.js';
import { isPastDue } from './dates.js';

export interface TaskStats {
  total: number;
  completed: number;
  active: number;
  overdue: number;
  archived: number;
  withTimeTracking: number;
}

export function taskStats(
  tasks: readonly TaskInfo[],
  isCompletedStatus: (status: string) => boolean,
  now: number,
): TaskStats {
  const today = localDay(now);
  const stats: TaskStats = {
    total: 0,
    completed: 0,
    active: 0,
    overdue: 0,
    archived: 0,
    withTimeTracking: 0,
  };
  for (const task of tasks) {
    stats.total++;
    // Recurring tasks count by their stored status only, as in the reference.
    const completed = isCompletedStatus(task.status);
    if (completed) stats.completed++;
    if (task.archived) stats.archived++;
    if (!completed && !task.archived) {
      stats.active++;
      if (isPastDue(task.due, today, now)) stats.overdue++;
    }
    if ((task.timeEntries?.length ?? 0) > 0) stats.withTimeTracking++;
  }
  return stats;
}
