/**
 * Calendar-day helpers shared by the date parsers: a "day" is a `YYYY-MM-DD` string, never a Date,
 * so that no code path depends on the process time zone by accident.
 */

/** True when year/month/day name a real day of the proleptic Gregorian calendar. */
export function isRealDay(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const probe = new Date(Date.UTC(year, month - 1, day));
  probe.setUTCFullYear(year); // Date.UTC maps years 0-99 to 1900-1999
  return probe.getUTCMonth() === month - 1 && probe.getUTCDate() === day;
}

/**
 * False when `text` starts with a `YYYY-MM-DD` that is no real day (`2026-02-30`): `Date.parse`
 * rolls such a day over into the next month instead of refusing it.
 */
export function leadingDayIsReal(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  return m === null || isRealDay(Number(m[1]), Number(m[2]), Number(m[3]));
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** The UTC calendar day of an instant. */
export function utcDay(date: Date): string {
  return `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

/** The calendar day of an instant in the process's local time zone. */
export function localDay(date: Date): string {
  return `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Adds whole days to a `YYYY-MM-DD` day (calendar arithmetic, no DST effects). */
export function addDays(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return utcDay(new Date(Date.UTC(y, m - 1, d + days)));
}

/** Whole days from `earlier` to `later` (both `YYYY-MM-DD`). */
export function daysBetween(later: string, earlier: string): number {
  return Math.round((Date.parse(`${later}T00:00:00Z`) - Date.parse(`${earlier}T00:00:00Z`)) / 86_400_000);
}
