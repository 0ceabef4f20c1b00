/**
 * Day-level views of temporal values (tasknotes-spec §3): the written calendar day of a value,
 * whether it carries a time, and day comparisons. Comparisons use the day as written — a datetime
 * `2026-02-20T23:00:00-05:00` belongs to Feb 20 for "same day" questions, whatever UTC says.
 */
import { parseTemporalValue, validateDateString } from './parse.js';

/** Matches a time of day after a `T` (`T10:00`), the marker of a datetime value. */
const TIME_MARKER = /T\d{2}:\d{2}/;

/** True when the text contains a `THH:MM` time component. */
export function hasTimeComponent(value: string): boolean {
  return typeof value === 'string' && TIME_MARKER.test(value);
}

/** The `YYYY-MM-DD` day a date or datetime value is written for; INVALID when unparseable. */
export function getDatePart(value: string): string {
  const parsed = parseTemporalValue(value);
  return parsed.writtenDay;
}

function dayOrNull(value: string): string | null {
  try {
    return validateDateString(getDatePart(value));
  } catch {
    return null;
  }
}

/** Same calendar day? False when either value is not a valid date. */
export function isSameDay(a: string, b: string): boolean {
  const [da, db] = [dayOrNull(a), dayOrNull(b)];
  return da !== null && db !== null && da === db;
}

/** Is `a`'s calendar day strictly before `b`'s? False when either value is not a valid date. */
export function isBeforeDay(a: string, b: string): boolean {
  const [da, db] = [dayOrNull(a), dayOrNull(b)];
  return da !== null && db !== null && da < db;
}

/** Like getDatePart but returns undefined instead of throwing for blank or invalid values. */
export function tryDatePart(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  return dayOrNull(value.trim()) ?? undefined;
}
