/**
 * Time-zone resolution for ICS TZIDs that the feed does not define with a VTIMEZONE block.
 * Outlook/Exchange feeds often use Windows zone names ("W. Europe Standard Time") or labels such
 * as "(UTC+01:00) Amsterdam, Berlin"; the plugin maps those to IANA zones through a fallback
 * table, Taskdown names through CLDR's and labels through their cities (labelZone). Wall-clock
 * times are then converted with the runtime's own zone database (Intl).
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
  const label = /\((?:UTC|GMT)\s*(?:([+-])(\d{1,2}):?(\d{2}))?\)\s*(.*)$/.exec(trimmed);
  if (!label) return undefined;
  const minutes = label[1] ? (label[1] === '-' ? -1 : 1) * (Number(label[2]) * 60 + Number(label[3])) : 0;
  const iana = labelZone(label[4] ?? '', minutes);
  return iana ? { iana } : { offsetMinutes: minutes };
}

/**
 * The IANA zone of a Windows zone's display label (what Outlook writes as a TZID: "(UTC+01:00)
 * Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna"), so that its daylight saving time is kept;
 * read as the fixed offset alone, such an event came an hour late all summer. The label's places
 * are looked up among the runtime's zones by city ("Amsterdam": Europe/Amsterdam), and the North
 * American labels ("Eastern Time (US & Canada)") through their Windows zone; a zone counts only
 * when it keeps the label's offset in January or July. Undefined when none does (a label with no
 * known city, "(UTC-07:00) Arizona": the fixed offset is then what is left).
 */
function labelZone(places: string, offsetMinutes: number): string | undefined {
  const northAmerican = /^(.+?) Time \((?:US & )?Canada\)$/.exec(places);
  const candidates = northAmerican
    ? [windowsZone(`${northAmerican[1]} Standard Time`)]
    : places.split(',').map((place) => zoneOfCity(place.trim()));
  return candidates.find((zone) => zone !== undefined && keepsOffset(zone, offsetMinutes));
}

let cities: Map<string, string> | undefined;

/** The runtime's zone named after `city` (the last part of its name), if any. */
function zoneOfCity(city: string): string | undefined {
  if (!cities) {
    cities = new Map();
    for (const zone of Intl.supportedValuesOf('timeZone')) {
      cities.set(zone.slice(zone.lastIndexOf('/') + 1).toLowerCase(), zone);
    }
  }
  return cities.get(city.replace(/ /g, '_').toLowerCase());
}

/** Whether `zone` is `offsetMinutes` east of UTC in January or in July of this year. */
function keepsOffset(zone: string, offsetMinutes: number): boolean {
  const year = new Date().getUTCFullYear();
  return [Date.UTC(year, 0, 1), Date.UTC(year, 6, 1)].some(
    (ms) => offsetAt(ms, zone) === offsetMinutes * 60_000,
  );
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
