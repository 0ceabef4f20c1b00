/**
 * Relative reminder offsets and trigger instants (tasknotes-spec §10.3.4–10.3.5): the trigger of a
 * relative reminder is its base field (`due` or `scheduled`) plus the offset; a date-only base is
 * anchored at the configured local time of day (default 00:00).
 */
import { addDuration, parseIsoDuration } from '../dates/duration.js';
import { parseTemporalValue } from '../dates/parse.js';

/** True for `PT15M`, `-PT15M`, `P1D`, `PT0M`…; false for `+PT15M` or anything not ISO 8601. */
export function isReminderOffset(text: string): boolean {
  return parseIsoDuration(text) !== null;
}

/**
 * The instant a relative reminder fires, or null when the base value is missing or invalid or
 * the offset is not a duration. `anchorTime` is `HH:MM` local time for date-only bases.
 */
export function relativeTriggerInstant(
  base: string | undefined,
  offset: string,
  anchorTime = '00:00',
): Date | null {
  const duration = parseIsoDuration(offset);
  if (!duration || !base || base.trim() === '') return null;
  let parsed;
  try {
    parsed = parseTemporalValue(base);
  } catch {
    return null;
  }
  let start = parsed.instant;
  if (!parsed.hasTime) {
    const [y, m, d] = parsed.writtenDay.split('-').map(Number) as [number, number, number];
    const [hh, mm] = anchorTime.split(':').map(Number) as [number, number];
    start = new Date(y, m - 1, d, hh, mm);
  }
  return addDuration(start, duration);
}
