/**
 * Time-zone resolution for ICS TZIDs that the feed does not define with a VTIMEZONE block.
 * Outlook/Exchange feeds often use Windows zone names ("W. Europe Standard Time") or labels such
 * as "(UTC+01:00) Amsterdam, Berlin"; the reference maps those to IANA zones through a fallback
 * table, Taskdown through CLDR's. Wall-clock times are then converted with the runtime's own zone
 * database (Intl).
 */
import { findIana } from 'windows-iana';
import { isKnownZone, wallTimeIn, type WallTime } from '../dates/timezone.js';

/**
 * The IANA zone of a Windows zone name, from CLDR's mapping (`windows-iana`: every Windows zone,
 * where a table of the common ones left the others, `Pakistan Standard Time` say, in UTC). The
 * first zone it gives is the one CLDR names for the whole Windows zone.
 */
const windowsZone = (name: string): string | undefined => findIana(name)[0];

/** A zone the runtime knows (IANA name) or a fixed offset in minutes east of UTC. */
export type ResolvedZone = { iana: string } | { offsetMinutes: number };

/** Maps a TZID to something convertible, or undefined when it is unknown. */
export function resolveTzid(tzid: string): ResolvedZone | undefined {
  const trimmed = tzid.trim().replace(/^"|"$/g, '');
  const candidates = [trimmed, windowsZone(trimmed)];
  // "/mozilla.org/20050126_1/America/New_York" style prefixes.
  const tail = /([A-Za-z_]+\/[A-Za-z_+-]+(?:\/[A-Za-z_+-]+)?)$/.exec(trimmed)?.[1];
  if (tail) candidates.push(tail);
  for (const c of candidates) if (c && isKnownZone(c)) return { iana: c };
  const fixed = /\((?:UTC|GMT)\s*([+-])(\d{1,2}):?(\d{2})\)/.exec(trimmed);
  if (fixed) {
    const minutes = Number(fixed[2]) * 60 + Number(fixed[3]);
    return { offsetMinutes: fixed[1] === '-' ? -minutes : minutes };
  }
  if (/^\((?:UTC|GMT)\)/.test(trimmed)) return { offsetMinutes: 0 };
  return undefined;
}

/** Offset of `zone` (a known zone) from UTC at instant `ms`, in milliseconds. */
function offsetAt(ms: number, zone: string): number {
  const w = wallTimeIn(ms, zone) as WallTime;
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - (ms - (ms % 1000));
}

/** The wall time `zone` shows at the UTC instant `ms` (whole seconds). */
export function utcToWallTime(ms: number, zone: ResolvedZone): WallTime {
  if ('iana' in zone) return wallTimeIn(ms, zone.iana) as WallTime;
  const d = new Date(ms + zone.offsetMinutes * 60_000);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
  };
}

/** The UTC instant at which `zone` shows wall time `w`. */
export function wallTimeToUtc(w: WallTime, zone: ResolvedZone): number {
  const guess = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  if ('offsetMinutes' in zone) return guess - zone.offsetMinutes * 60_000;
  const first = guess - offsetAt(guess, zone.iana);
  // Around a DST change the offset at the first estimate can differ; one correction settles it.
  const second = guess - offsetAt(first, zone.iana);
  return second;
}
