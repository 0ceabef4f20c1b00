/**
 * Wall-clock time in named IANA time zones, through the runtime's own zone database (Intl): the
 * calendar day an instant falls on (tasknotes-spec §3) and the wall time used to convert ICS
 * local times (calendars/time-zones.ts).
 */
import { invalid } from '../errors.js';
import { parseDateToUTC } from './parse.js';

export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

// One formatter per zone: building one is far slower than formatting with it.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat | undefined {
  let f = formatters.get(zone);
  if (f) return f;
  try {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  } catch {
    return undefined;
  }
  formatters.set(zone, f);
  return f;
}

/** Whether the runtime knows `zone` (an IANA name such as `Europe/Berlin`). */
export const isKnownZone = (zone: string): boolean => formatterFor(zone) !== undefined;

/** The wall time `zone` shows at instant `ms`; undefined when the zone is unknown. */
export function wallTimeIn(ms: number, zone: string): WallTime | undefined {
  const f = formatterFor(zone);
  if (!f) return undefined;
  const parts: Record<string, number> = {};
  for (const p of f.formatToParts(new Date(ms))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return {
    year: parts.year ?? 1970,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

export function dayInTimezone(instant: string, timeZone: string): string {
  const when = parseDateToUTC(instant);
  const zone = timeZone.trim();
  if (!zone) throw invalid('Invalid timezone: none given');
  const wall = wallTimeIn(when.getTime(), zone);
  if (!wall) throw invalid(`Invalid timezone: unknown zone "${zone}"`);
  return `${wall.year}-${pad2(wall.month)}-${pad2(wall.day)}`;
}
