/**
 * The rules of time entries in a task's `timeEntries` list (as in the TaskNotes plugin).
 * Pure functions over the list: the time service wraps them in a locked read-modify-write.
 */
import { conflict } from '../errors.js';
import type { TimeEntry } from '../tasks/task-info.js';

export const DEFAULT_DESCRIPTION = 'Work session';
export const ALREADY_ACTIVE = 'Time tracking is already active for this task';
export const NOT_ACTIVE = 'No active time tracking session for this task';

const isActive = (entry: TimeEntry): boolean => Boolean(entry.startTime) && !entry.endTime;

/** The first running entry (startTime and no endTime), as the reference picks it. */
export function activeEntry(entries: readonly TimeEntry[] | undefined): TimeEntry | undefined {
  return entries?.find(isActive);
}

/** Drops the legacy `duration` key, which the reference strips on every start and stop. */
function sanitize(entries: readonly TimeEntry[] | undefined): TimeEntry[] {
  return (entries ?? []).map((entry) => {
    const { duration: _legacy, ...rest } = entry as TimeEntry & { duration?: unknown };
    return rest;
  });
}

/** Appends a running entry; a task tracks at most one at a time. */
export function startEntry(
  entries: readonly TimeEntry[] | undefined,
  at: number,
  description: string = DEFAULT_DESCRIPTION,
): { entries: TimeEntry[]; started: TimeEntry } {
  if (activeEntry(entries)) throw conflict(ALREADY_ACTIVE);
  // Key order startTime, description, endTime is the reference's YAML order.
  const started: TimeEntry = { startTime: new Date(at).toISOString(), description };
  return { entries: [...sanitize(entries), started], started };
}

/** Closes the running entry at `at`; returns the entry that was stopped. */
export function stopEntry(
  entries: readonly TimeEntry[] | undefined,
  at: number,
): { entries: TimeEntry[]; stopped: TimeEntry } {
  const next = sanitize(entries);
  const index = next.findIndex(isActive);
  const running = next[index];
  if (!running) throw conflict(NOT_ACTIVE);
  // Never end an entry before it began (a clock step backwards would give a negative duration).
  const end = Math.max(at, Date.parse(running.startTime) || at);
  const stopped: TimeEntry = { ...running, endTime: new Date(end).toISOString() };
  next[index] = stopped;
  return { entries: next, stopped };
}

/** Whole minutes of an entry, floored; a running entry counts up to `now`. */
export function entryMinutes(entry: TimeEntry, now: number): number {
  const start = Date.parse(entry.startTime);
  const end = entry.endTime ? Date.parse(entry.endTime) : now;
  if (!Number.isFinite(start) || !Number.isFinite(end) || end < start) return 0;
  return Math.floor((end - start) / 60_000);
}

export const round2 = (n: number): number => Math.round(n * 100) / 100;
