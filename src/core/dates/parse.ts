/**
 * Parsing of TaskNotes temporal values (tasknotes-spec §3). Two shapes are stored in frontmatter:
 * a date-only `YYYY-MM-DD` (a calendar day, no instant) and an ISO 8601 datetime. Datetimes with
 * `Z` or an offset name an instant; without one they are local wall-clock time. Invalid values
 * throw DomainError INVALID — never a silently shifted or rolled-over date (Feb 30 is an error,
 * not Mar 2).
 */
import { invalid } from '../errors.js';
import { isRealDay } from './calendar.js';

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_WITH_DAY_NAME =
  /^(\d{4}-\d{2}-\d{2})\s+(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)$/i;
const DATETIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** A parsed temporal value: the instant plus whether the text carried a time of day. */
export interface ParsedTemporal {
  /** For date-only values: midnight (UTC or local, per the parser used). */
  instant: Date;
  /** The calendar day as written (`YYYY-MM-DD`), before any zone conversion. */
  writtenDay: string;
  hasTime: boolean;
}

function fail(value: string, reason: string): never {
  throw invalid(`Invalid date "${value}": ${reason}. Expected YYYY-MM-DD or an ISO 8601 datetime.`);
}

function parseOffsetMinutes(zone: string): number {
  if (zone === 'Z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2, 4));
  if (hours > 23 || minutes > 59) return Number.NaN;
  return sign * (hours * 60 + minutes);
}

/** Builds a Date from parts; unlike `Date.UTC`/`new Date`, years 0–99 stay years 0–99. */
function fromParts(
  anchor: 'utc' | 'local',
  y: number,
  mo: number,
  d: number,
  h = 0,
  mi = 0,
  s = 0,
  ms = 0,
): Date {
  const date = new Date(0);
  if (anchor === 'utc') {
    date.setUTCFullYear(y, mo - 1, d);
    date.setUTCHours(h, mi, s, ms);
  } else {
    date.setFullYear(y, mo - 1, d);
    date.setHours(h, mi, s, ms);
  }
  return date;
}

function parseTemporal(raw: string, dateOnlyAnchor: 'utc' | 'local'): ParsedTemporal {
  if (typeof raw !== 'string' || raw.trim() === '') {
    throw invalid('Invalid date: the value is empty. Expected YYYY-MM-DD or an ISO 8601 datetime.');
  }
  let value = raw.trim();
  const withDayName = DATE_WITH_DAY_NAME.exec(value);
  if (withDayName) value = withDayName[1] as string;

  const dateOnly = DATE_ONLY.exec(value);
  if (dateOnly) {
    const [y, m, d] = [Number(dateOnly[1]), Number(dateOnly[2]), Number(dateOnly[3])];
    if (!isRealDay(y, m, d)) fail(raw, 'no such calendar day');
    return { instant: fromParts(dateOnlyAnchor, y, m, d), writtenDay: value, hasTime: false };
  }

  const dt = DATETIME.exec(value);
  if (!dt) fail(raw, 'unrecognised format');
  const [y, mo, d, h, mi] = [1, 2, 3, 4, 5].map((i) => Number(dt[i])) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const s = dt[6] === undefined ? 0 : Number(dt[6]);
  const ms = dt[7] === undefined ? 0 : Number(dt[7].slice(0, 3).padEnd(3, '0'));
  if (!isRealDay(y, mo, d)) fail(raw, 'no such calendar day');
  // 24:00, :60 minutes and leap seconds are rejected rather than rolled into the next unit.
  if (h > 23 || mi > 59 || s > 59) fail(raw, 'time of day out of range');
  const zone = dt[8];
  let instant: Date;
  if (zone === undefined) {
    instant = fromParts('local', y, mo, d, h, mi, s, ms);
  } else {
    const offset = parseOffsetMinutes(zone);
    if (Number.isNaN(offset)) fail(raw, 'time zone offset out of range');
    instant = new Date(fromParts('utc', y, mo, d, h, mi, s, ms).getTime() - offset * 60_000);
  }
  return { instant, writtenDay: value.slice(0, 10), hasTime: true };
}

/** Parses a date or datetime; a date-only value becomes midnight UTC of that day. */
export function parseDateToUTC(value: string): Date {
  return parseTemporal(value, 'utc').instant;
}

/** Parses a date or datetime; a date-only value becomes local midnight of that day. */
export function parseDateToLocal(value: string): Date {
  return parseTemporal(value, 'local').instant;
}

/** Full parse result (instant, written day, whether a time was given), date-only at UTC midnight. */
export function parseTemporalValue(value: string): ParsedTemporal {
  return parseTemporal(value, 'utc');
}

/** Accepts only a real `YYYY-MM-DD` day and returns it; anything else is INVALID. */
export function validateDateString(value: string): string {
  const match = DATE_ONLY.exec(typeof value === 'string' ? value : '');
  if (!match || !isRealDay(Number(match[1]), Number(match[2]), Number(match[3]))) {
    throw invalid(`Invalid date "${value}". Expected YYYY-MM-DD.`);
  }
  return value;
}
