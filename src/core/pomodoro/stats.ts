/**
 * Pomodoro history read models (as in the TaskNotes plugin). Days are the literal
 * `YYYY-MM-DD` prefix of the stored local timestamp, i.e. the local calendar day of the start.
 * (The reference filtered `sessions` by UTC day but `stats` by local day; both use local here.)
 */
import type { HistoryEntry } from './model.js';

const dayOf = (entry: HistoryEntry): string => entry.startTime.slice(0, 10);

/** Closed periods' minutes, each rounded, with legacy fallbacks (reference rule). */
function sessionMinutes(entry: HistoryEntry & { duration?: unknown }): number {
  if (entry.activePeriods.length > 0) {
    return entry.activePeriods.reduce((sum, p) => {
      if (!p.endTime) return sum;
      const ms = Date.parse(p.endTime) - Date.parse(p.startTime);
      return Number.isFinite(ms) && ms > 0 ? sum + Math.round(ms / 60_000) : sum;
    }, 0);
  }
  if (typeof entry.duration === 'number') return entry.duration;
  const ms = Date.parse(entry.endTime) - Date.parse(entry.startTime);
  return Number.isFinite(ms) && ms > 0 ? Math.round(ms / 60_000) : 0;
}

export interface DayStats {
  pomodorosCompleted: number;
  currentStreak: number;
  totalMinutes: number;
  averageSessionLength: number;
  completionRate: number;
}

/** Statistics over the work sessions started on `day`. */
export function dayStats(history: readonly HistoryEntry[], day: string): DayStats {
  const work = history
    .filter((e) => e.type === 'work' && dayOf(e) === day)
    .sort((a, b) => Date.parse(a.startTime) - Date.parse(b.startTime));
  const completed = work.filter((e) => e.completed);
  let streak = 0;
  for (let i = work.length - 1; i >= 0 && work[i]?.completed; i--) streak++;
  const totalMinutes = completed.reduce((sum, e) => sum + sessionMinutes(e), 0);
  return {
    pomodorosCompleted: completed.length,
    currentStreak: streak,
    totalMinutes,
    averageSessionLength: completed.length ? Math.round(totalMinutes / completed.length) : 0,
    completionRate: work.length ? Math.round((completed.length / work.length) * 100) : 0,
  };
}

/** Completed work sessions started on `day` (drives the long-break interval). */
export const completedWorkOn = (history: readonly HistoryEntry[], day: string): number =>
  history.filter((e) => e.type === 'work' && e.completed && dayOf(e) === day).length;

/** History oldest first, optionally one day's, keeping the most recent `limit` (> 0). */
export function listSessions(
  history: readonly HistoryEntry[],
  filter: { date?: string; limit?: number },
): { sessions: HistoryEntry[]; total: number } {
  const matching = filter.date ? history.filter((e) => dayOf(e) === filter.date) : [...history];
  const limit = filter.limit ?? 0;
  return { sessions: limit > 0 ? matching.slice(-limit) : matching, total: matching.length };
}
