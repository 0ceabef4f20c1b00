/**
 * Calendar days as `YYYY-MM-DD` strings. Recurrence works at day granularity with UTC-midnight
 * anchors (as in the TaskNotes plugin): a day string maps to the Date at 00:00 UTC of that day, so
 * day arithmetic never meets a DST transition.
 */
import { isRealDay } from '../dates/calendar.js';

const DAY_MS = 86_400_000;
const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * True for a real calendar date in `YYYY-MM-DD` form (rejects 2026-02-30), by the rule the write
 * validation uses: years 0000-0099 are days too.
 */
export function isDay(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = DAY_RE.exec(value);
  return m !== null && isRealDay(Number(m[1]), Number(m[2]), Number(m[3]));
}

/** The Date at 00:00 UTC of `day`. */
export function dayToDate(day: string): Date {
  return new Date(`${day}T00:00:00.000Z`);
}

/** The UTC calendar day of `date`. */
export function dateToDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function addDays(day: string, days: number): string {
  return dateToDay(new Date(dayToDate(day).getTime() + days * DAY_MS));
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((dayToDate(to).getTime() - dayToDate(from).getTime()) / DAY_MS);
}

/** The later of two days. */
export function maxDay(a: string, b: string): string {
  return a >= b ? a : b;
}

/**
 * The day part of a stored date or date-time value (`2026-01-05T09:00` → `2026-01-05`), or
 * undefined when it does not start with a valid day.
 */
export function dayOf(value: string | undefined): string | undefined {
  const day = value?.slice(0, 10);
  return isDay(day) ? day : undefined;
}

/** The part after `T` of a date-time value, or undefined for a date-only value. */
export function timeOf(value: string | undefined): string | undefined {
  const at = value?.indexOf('T') ?? -1;
  return value !== undefined && at >= 0 ? value.slice(at + 1) : undefined;
}

/** `day` carrying over the time part of `like` (`like` = `2026-01-05T09:00` → `<day>T09:00`). */
export function withTimeOf(day: string, like: string | undefined): string {
  const time = timeOf(like);
  return time === undefined ? day : `${day}T${time}`;
}

/** The local calendar day of an instant (the server's time zone): what "today" means. */
export function localDay(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}
