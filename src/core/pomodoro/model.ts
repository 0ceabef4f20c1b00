/**
 * Pomodoro data (as in the TaskNotes plugin): sessions, the timer state and the persisted
 * file. Keys follow the plugin's data.json (`pomodoroState`, `pomodoroHistory`, ...) so state
 * stays recognisable to anyone who knows TaskNotes. Timestamps are local time with offset.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { TaskNotesSettings } from '../tasks/tasknotes-settings.js';

export const SessionTypeSchema = Type.Union([
  Type.Literal('work'),
  Type.Literal('short-break'),
  Type.Literal('long-break'),
]);
export type SessionType = Static<typeof SessionTypeSchema>;

export const ActivePeriodSchema = Type.Object({
  startTime: Type.String(),
  endTime: Type.Optional(Type.String()),
});
export type ActivePeriod = Static<typeof ActivePeriodSchema>;

export const PomodoroSessionSchema = Type.Object({
  id: Type.String(),
  taskPath: Type.Optional(Type.String()),
  startTime: Type.String(),
  endTime: Type.Optional(Type.String()),
  plannedDuration: Type.Number({ description: 'Minutes; fractional for sub-minute timers' }),
  type: SessionTypeSchema,
  completed: Type.Boolean(),
  interrupted: Type.Optional(Type.Boolean()),
  activePeriods: Type.Array(ActivePeriodSchema),
});
export type PomodoroSession = Static<typeof PomodoroSessionSchema>;

/** History entries keep the reference's shape: no `interrupted`, `completed` false for those. */
export const HistoryEntrySchema = Type.Object({
  id: Type.String(),
  startTime: Type.String(),
  endTime: Type.String(),
  plannedDuration: Type.Number(),
  type: SessionTypeSchema,
  taskPath: Type.Optional(Type.String()),
  completed: Type.Boolean(),
  activePeriods: Type.Array(ActivePeriodSchema),
});
export type HistoryEntry = Static<typeof HistoryEntrySchema>;

export const PomodoroStateSchema = Type.Object({
  isRunning: Type.Boolean(),
  currentSession: Type.Optional(PomodoroSessionSchema),
  timeRemaining: Type.Number({ description: 'Seconds' }),
  nextSessionType: Type.Optional(SessionTypeSchema),
});
export type PomodoroState = Static<typeof PomodoroStateSchema>;

export const PomodoroFileSchema = Type.Object({
  version: Type.Literal(1, { default: 1 }),
  pomodoroState: PomodoroStateSchema,
  lastPomodoroDate: Type.Union([Type.String(), Type.Null()], { default: null }),
  lastSelectedTaskPath: Type.Union([Type.String(), Type.Null()], { default: null }),
  pomodoroHistory: Type.Array(HistoryEntrySchema, { default: [] }),
});
export type PomodoroFile = Static<typeof PomodoroFileSchema>;

/** The TaskNotes pomodoro settings, in minutes. */
export interface PomodoroSettings {
  workDuration: number;
  shortBreakDuration: number;
  longBreakDuration: number;
  longBreakInterval: number;
  autoStartBreaks: boolean;
  autoStartWork: boolean;
}

/** The pomodoro slice of the effective TaskNotes settings (data.json keys `pomodoro*`). */
export function pomodoroSettingsOf(settings: TaskNotesSettings): PomodoroSettings {
  return {
    workDuration: settings.pomodoroWorkDuration,
    shortBreakDuration: settings.pomodoroShortBreakDuration,
    longBreakDuration: settings.pomodoroLongBreakDuration,
    longBreakInterval: settings.pomodoroLongBreakInterval,
    autoStartBreaks: settings.pomodoroAutoStartBreaks,
    autoStartWork: settings.pomodoroAutoStartWork,
  };
}

const MIN_SECONDS = 1;
const MAX_SECONDS = 7200;

/** What a session's length may be, for the route's and the MCP tool's documentation. */
export const DURATION_RULE = 'Minutes, fractional allowed (0.05 = 3 s); clamped to 1 s .. 2 h';

/**
 * Minutes → whole seconds within 1 s .. 2 h. Fractional minutes are kept (0.05 → 3 s); the tiny
 * epsilon stops float noise (0.35 × 60 = 20.999…) from losing a second to the floor.
 */
export function clampSeconds(minutes: number): number {
  if (!Number.isFinite(minutes)) return 60;
  return Math.min(MAX_SECONDS, Math.max(MIN_SECONDS, Math.floor(minutes * 60 + 1e-9)));
}

/** Break lengths are clamped further: short 1–30 min, long 1–60 min (as in the TaskNotes plugin). */
export function breakSeconds(type: 'short-break' | 'long-break', settings: PomodoroSettings): number {
  const [minutes, max] =
    type === 'short-break' ? [settings.shortBreakDuration, 30] : [settings.longBreakDuration, 60];
  return clampSeconds(Math.min(max, Math.max(1, minutes)));
}

/** Milliseconds of active (unpaused) time; an open period counts up to `now`. */
export function activeMs(session: PomodoroSession, now: number): number {
  let total = 0;
  for (const period of session.activePeriods) {
    const start = Date.parse(period.startTime);
    const end = period.endTime ? Date.parse(period.endTime) : now;
    if (Number.isFinite(start) && Number.isFinite(end) && end > start) total += end - start;
  }
  return total;
}

export const plannedMs = (session: PomodoroSession): number => Math.round(session.plannedDuration * 60_000);

export function remainingMs(session: PomodoroSession, now: number): number {
  return Math.max(0, plannedMs(session) - activeMs(session, now));
}

/**
 * The instant at which the active time reached the planned duration, for a running session
 * (its last period is open). Used as `endTime` so a session completed late (after a restart)
 * still records when it really ended.
 */
export function completionInstant(session: PomodoroSession, now: number): number {
  return now - (activeMs(session, now) - plannedMs(session));
}

export const toHistoryEntry = (session: PomodoroSession, completed: boolean): HistoryEntry => ({
  id: session.id,
  startTime: session.startTime,
  endTime: session.endTime ?? session.startTime,
  plannedDuration: session.plannedDuration,
  type: session.type,
  ...(session.taskPath !== undefined && { taskPath: session.taskPath }),
  completed,
  activePeriods: session.activePeriods,
});
