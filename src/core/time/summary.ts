/**
 * Read models of tracked time (as in the TaskNotes plugin): a task's report, the running
 * sessions and the period summary. Pure functions of the tasks and a fixed `now`, so the rules are
 * tested with exact clocks.
 */
import { leadingDayIsReal } from '../dates/calendar.js';
import { invalid } from '../errors.js';
import type { TaskInfo, TimeEntry } from '../tasks/task-info.js';
import { activeEntry, entryMinutes, round2 } from './entries.js';

/** Epoch ms of local midnight of the day containing `ms`. */
function localMidnight(ms: number): number {
  const d = new Date(ms);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
}

export interface SessionView {
  startTime: string;
  description?: string;
  elapsedMinutes: number;
}

function sessionView(entry: TimeEntry, now: number): SessionView {
  // Key order as the reference: startTime, description (only when set), elapsedMinutes.
  return {
    startTime: entry.startTime,
    ...(entry.description !== undefined && { description: entry.description }),
    elapsedMinutes: entryMinutes(entry, now),
  };
}

/** GET /api/tasks/:id/time */
export function taskTimeReport(task: TaskInfo, now: number) {
  const entries = task.timeEntries ?? [];
  const minutes = entries.map((e) => entryMinutes(e, now));
  const total = minutes.reduce((a, b) => a + b, 0);
  const completed = entries.flatMap((e, i) => (e.endTime ? [minutes[i] ?? 0] : []));
  const active = activeEntry(entries);
  return {
    task: { id: task.path, title: task.title, status: task.status, priority: task.priority },
    summary: {
      totalMinutes: total,
      totalHours: round2(total / 60),
      totalSessions: entries.length,
      completedSessions: completed.length,
      activeSessions: active ? 1 : 0,
      averageSessionMinutes: completed.length
        ? round2(completed.reduce((a, b) => a + b, 0) / completed.length)
        : 0,
    },
    activeSession: active ? sessionView(active, now) : null,
    timeEntries: entries.map((e, i) => ({
      startTime: e.startTime,
      endTime: e.endTime ?? null,
      description: e.description ?? null,
      duration: minutes[i] ?? 0,
      isActive: !e.endTime,
    })),
  };
}

/** GET /api/time/active: every task with a running entry, in the order given. */
export function activeSessions(tasks: Iterable<TaskInfo>, now: number) {
  const sessions = [];
  for (const task of tasks) {
    const running = activeEntry(task.timeEntries);
    if (!running) continue;
    const session = sessionView(running, now);
    sessions.push({
      task: {
        id: task.path,
        title: task.title,
        status: task.status,
        priority: task.priority,
        tags: task.tags,
        projects: task.projects,
      },
      session,
      elapsedMinutes: session.elapsedMinutes,
    });
  }
  return {
    activeSessions: sessions,
    totalActiveSessions: sessions.length,
    totalElapsedMinutes: sessions.reduce((sum, s) => sum + s.elapsedMinutes, 0),
  };
}

export interface SummaryQuery {
  period?: string;
  from?: string;
  to?: string;
}

function parseBound(text: string, name: 'from' | 'to'): number {
  // Date-only text is UTC midnight, as `new Date(str)` reads it in the reference.
  const ms = Date.parse(text);
  if (!Number.isFinite(ms) || !leadingDayIsReal(text)) {
    throw invalid(`Invalid "${name}" date: ${text}`, { field: name });
  }
  return ms;
}

/** The [start, end] range of a summary period (as in the TaskNotes plugin). */
export function summaryRange(query: SummaryQuery, now: number): { start: number; end: number } {
  const period = query.period ?? 'today';
  switch (period) {
    case 'today':
      return { start: localMidnight(now), end: now };
    case 'week': {
      // The most recent Sunday, whatever the first-day-of-week setting (as the reference).
      const d = new Date(localMidnight(now));
      return { start: new Date(d.getFullYear(), d.getMonth(), d.getDate() - d.getDay()).getTime(), end: now };
    }
    case 'month': {
      const d = new Date(now);
      return { start: new Date(d.getFullYear(), d.getMonth(), 1).getTime(), end: now };
    }
    case 'all':
      return { start: 0, end: now };
    default: {
      // The reference answered an invalid date with a 500; here it is a 400 naming the field.
      const start = query.from !== undefined ? parseBound(query.from, 'from') : localMidnight(now);
      const end = query.from !== undefined && query.to !== undefined ? parseBound(query.to, 'to') : now;
      if (end < start) throw invalid('"from" must not be after "to"', { field: 'from' });
      return { start, end };
    }
  }
}

interface Ranked {
  minutes: number;
}
const top10 = <T extends Ranked>(items: T[]): T[] => items.sort((a, b) => b.minutes - a.minutes).slice(0, 10);

function addTo(map: Map<string, number>, key: string, minutes: number): void {
  map.set(key, (map.get(key) ?? 0) + minutes);
}

/** GET /api/time/summary */
export function timeSummary(
  tasks: Iterable<TaskInfo>,
  query: SummaryQuery,
  now: number,
  isCompletedStatus: (status: string) => boolean,
) {
  const { start, end } = summaryRange(query, now);
  let totalMinutes = 0;
  let activeTasks = 0;
  let completedTasks = 0;
  const perTask: Array<{ task: string; title: string; minutes: number }> = [];
  const perProject = new Map<string, number>();
  const perTag = new Map<string, number>();

  for (const task of tasks) {
    // An entry counts when its start lies in the range, with its whole duration (reference rule).
    const inRange = (task.timeEntries ?? []).filter((e) => {
      const t = Date.parse(e.startTime);
      return t >= start && t <= end;
    });
    const minutes = inRange.reduce((sum, e) => sum + entryMinutes(e, now), 0);
    if (minutes <= 0) continue;
    totalMinutes += minutes;
    const running = inRange.some((e) => !e.endTime);
    if (running) activeTasks++;
    else if (isCompletedStatus(task.status)) completedTasks++;
    perTask.push({ task: task.path, title: task.title, minutes });
    for (const project of task.projects) addTo(perProject, project, minutes);
    for (const tag of task.tags) addTo(perTag, tag, minutes);
  }

  return {
    period: query.period ?? 'today',
    dateRange: { from: new Date(start).toISOString(), to: new Date(end).toISOString() },
    summary: {
      totalMinutes,
      totalHours: round2(totalMinutes / 60),
      tasksWithTime: perTask.length,
      activeTasks,
      completedTasks,
    },
    topTasks: top10(perTask),
    topProjects: top10([...perProject].map(([project, minutes]) => ({ project, minutes }))),
    topTags: top10([...perTag].map(([tag, minutes]) => ({ tag, minutes }))),
  };
}
