/**
 * Time-zone resolution for ICS TZIDs that the feed does not define with a VTIMEZONE block.
 * Outlook/Exchange feeds often use Windows zone names ("W. Europe Standard Time") or labels such
 * as "(UTC+01:00) Amsterdam, Berlin"; the reference maps those to IANA zones through a fallback
 * table. Wall-clock times are then converted with the runtime's own zone database (Intl).
 */
import { isKnownZone, wallTimeIn, type WallTime } from '../dates/timezone.js';

const WINDOWS_ZONES: Record<string, string> = {
  'Dateline Standard Time': 'Etc/GMT+12',
  'Hawaiian Standard Time': 'Pacific/Honolulu',
  'Alaskan Standard Time': 'America/Anchorage',
  'Pacific Standard Time': 'America/Los_Angeles',
  'US Mountain Standard Time': 'America/Phoenix',
  'Mountain Standard Time': 'America/Denver',
  'Central Standard Time': 'America/Chicago',
  'Central Standard Time (Mexico)': 'America/Mexico_City',
  'Canada Central Standard Time': 'America/Regina',
  'Eastern Standard Time': 'America/New_York',
  'US Eastern Standard Time': 'America/Indianapolis',
  'Atlantic Standard Time': 'America/Halifax',
  'Newfoundland Standard Time': 'America/St_Johns',
  'E. South America Standard Time': 'America/Sao_Paulo',
  'Argentina Standard Time': 'America/Argentina/Buenos_Aires',
  UTC: 'UTC',
  'Coordinated Universal Time': 'UTC',
  'GMT Standard Time': 'Europe/London',
  'Greenwich Standard Time': 'Atlantic/Reykjavik',
  'W. Europe Standard Time': 'Europe/Berlin',
  'Central Europe Standard Time': 'Europe/Budapest',
  'Central European Standard Time': 'Europe/Warsaw',
  'Romance Standard Time': 'Europe/Paris',
  'E. Europe Standard Time': 'Europe/Chisinau',
  'FLE Standard Time': 'Europe/Kiev',
  'GTB Standard Time': 'Europe/Bucharest',
  'Turkey Standard Time': 'Europe/Istanbul',
  'Israel Standard Time': 'Asia/Jerusalem',
  'Egypt Standard Time': 'Africa/Cairo',
  'South Africa Standard Time': 'Africa/Johannesburg',
  'Russian Standard Time': 'Europe/Moscow',
  'Arabian Standard Time': 'Asia/Dubai',
  'India Standard Time': 'Asia/Kolkata',
  'SE Asia Standard Time': 'Asia/Bangkok',
  'China Standard Time': 'Asia/Shanghai',
  'Singapore Standard Time': 'Asia/Singapore',
  'Taipei Standard Time': 'Asia/Taipei',
  'Tokyo Standard Time': 'Asia/Tokyo',
  'Korea Standard Time': 'Asia/Seoul',
  'W. Australia Standard Time': 'Australia/Perth',
  'Cen. Australia Standard Time': 'Australia/Adelaide',
  'E. Australia Standard Time': 'Australia/Brisbane',
  'AUS Eastern Standard Time': 'Australia/Sydney',
  'New Zealand Standard Time': 'Pacific/Auckland',
};

/** A zone the runtime knows (IANA name) or a fixed offset in minutes east of UTC. */
export type ResolvedZone = { iana: string } | { offsetMinutes: number };

/** Maps a TZID to something convertible, or undefined when it is unknown. */
export function resolveTzid(tzid: string): ResolvedZone | undefined {
  const trimmed = tzid.trim().replace(/^"|"$/g, '');
  const candidates = [trimmed, WINDOWS_ZONES[trimmed]];
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

/** The UTC instant at which `zone` shows wall time `w`. */
export function wallTimeToUtc(w: WallTime, zone: ResolvedZone): number {
  const guess = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  if ('offsetMinutes' in zone) return guess - zone.offsetMinutes * 60_000;
  const first = guess - offsetAt(guess, zone.iana);
  // Around a DST change the offset at the first estimate can differ; one correction settles it.
  const second = guess - offsetAt(first, zone.iana);
  return second;
}
