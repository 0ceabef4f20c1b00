/**
 * Writing DTSTART. A date-only source gives `YYYYMMDD`; a source with a time gives the real UTC
 * instant `YYYYMMDDTHHMMSSZ`. The reference writes local wall-clock digits with a `Z` (quirk 12);
 * fixed here, docs/api-decisions.md: a naive time (`2025-12-30T09:00`) is the server's local time, converted.
 */
import { dayOf, isDay, timeOf } from './day.js';
import { hasDtstart, RecurrenceSyntaxError, setDtstartValue } from './rule.js';

const pad = (n: number): string => String(n).padStart(2, '0');

/** The DTSTART value for a stored date or date-time; throws RecurrenceSyntaxError when invalid. */
export function dtstartValue(source: string): string {
  const day = dayOf(source);
  if (!day) throw new RecurrenceSyntaxError(`Invalid date for DTSTART: ${source}`);
  if (timeOf(source) === undefined) {
    if (!isDay(source)) throw new RecurrenceSyntaxError(`Invalid date for DTSTART: ${source}`);
    return day.replaceAll('-', '');
  }
  const at = new Date(source);
  if (Number.isNaN(at.getTime())) throw new RecurrenceSyntaxError(`Invalid date for DTSTART: ${source}`);
  return (
    `${at.getUTCFullYear()}${pad(at.getUTCMonth() + 1)}${pad(at.getUTCDate())}` +
    `T${pad(at.getUTCHours())}${pad(at.getUTCMinutes())}${pad(at.getUTCSeconds())}Z`
  );
}

/** Sets (or replaces) the rule's DTSTART from `source`. */
export function withDtstart(recurrence: string, source: string): string {
  return setDtstartValue(recurrence, dtstartValue(source));
}

/**
 * Adds a DTSTART from the first usable source (scheduled, then dateCreated) when the rule has
 * none; a rule that already has one, or no usable source, is returned unchanged.
 */
export function ensureDtstart(recurrence: string, ...sources: Array<string | undefined>): string {
  if (hasDtstart(recurrence)) return recurrence;
  for (const source of sources) {
    if (source === undefined || !dayOf(source)) continue;
    try {
      return withDtstart(recurrence, source);
    } catch {
      // An unparseable time on this source: try the next one.
    }
  }
  return recurrence;
}

/** A stored rule without the `RRULE:` prefix some writers put before it. */
export const stripRrulePrefix = (recurrence: string): string => recurrence.replace(/^RRULE:/i, '');
