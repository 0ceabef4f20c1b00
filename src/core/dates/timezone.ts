/** The calendar day an instant falls on in a named IANA time zone (tasknotes-spec §3). */
import { invalid } from '../errors.js';
import { parseDateToUTC } from './parse.js';

export function dayInTimezone(instant: string, timeZone: string): string {
  const when = parseDateToUTC(instant);
  const zone = timeZone.trim();
  if (!zone) throw invalid('Invalid timezone: none given');
  let formatter: Intl.DateTimeFormat;
  try {
    formatter = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
  } catch {
    throw invalid(`Invalid timezone: unknown zone "${zone}"`);
  }
  const parts = Object.fromEntries(formatter.formatToParts(when).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}
