/**
 * Date handling of FilterQuery (as in the TaskNotes plugin). Stored dates are
 * `YYYY-MM-DD` or `YYYY-MM-DDTHH:mm[:ss[.sss]]` with an optional offset; comparisons place times
 * on the server's local wall clock: a time without an offset as written (the plugin's format), one
 * with an offset or `Z` at the local time of the instant it names (the reference ignored the
 * offset, so `…T14:00:00Z` counted as 14:00 local in every zone), and a date-only value counts
 * as the end of its day when compared with a date-time. "Today" is the LOCAL calendar day
 * everywhere (docs/api-decisions.md; unlike the TaskNotes plugin's UTC overdue).
 */
import { addDays, isDay, localDay } from '../recurrence/day.js';

const DATE_TIME_RE =
  /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/;
const END_OF_DAY_MS = 86_399_999;
const MINUTE_MS = 60_000;

/** Shared through a cache: never mutate one. */
export interface ParsedDate {
  readonly day: string;
  readonly hasTime: boolean;
  /**
   * Naive wall-clock position on a UTC-based axis, in ms: minute precision for date-times,
   * 23:59:59.999 of the day for date-only values. Comparing two of these is the reference's
   * time-aware comparison.
   */
  readonly instant: number;
}

/**
 * Parsed values by text. A vault has few distinct dates compared with the number of times sorting
 * and filtering look at them, so this turns most parses into one map lookup. Cleared when full.
 */
const cache = new Map<string, ParsedDate | null>();
const CACHE_LIMIT = 50_000;

/** Parses a stored or condition date; undefined when it is not a valid date (or date-time). */
export function parseDate(value: string): ParsedDate | undefined {
  let parsed = cache.get(value);
  if (parsed === undefined) {
    if (cache.size >= CACHE_LIMIT) cache.clear();
    parsed = parseUncached(value) ?? null;
    cache.set(value, parsed);
  }
  return parsed ?? undefined;
}

function parseUncached(value: string): ParsedDate | undefined {
  const m = DATE_TIME_RE.exec(value.trim());
  if (!m) return undefined;
  const day = m[1] as string;
  if (!isDay(day)) return undefined;
  const base = Date.parse(`${day}T00:00:00.000Z`);
  if (m[2] === undefined) return { day, hasTime: false, instant: base + END_OF_DAY_MS };
  const hours = Number(m[2]);
  const minutes = Number(m[3]);
  const seconds = m[4] === undefined ? 0 : Number(m[4]);
  if (hours > 23 || minutes > 59 || seconds > 59) return undefined;
  const offset = m[5];
  if (offset === undefined) return { day, hasTime: true, instant: base + (hours * 60 + minutes) * MINUTE_MS };
  const zone = offset === 'Z' || offset.includes(':') ? offset : `${offset.slice(0, 3)}:${offset.slice(3)}`;
  const at = Date.parse(`${day}T${m[2]}:${m[3]}:${String(seconds).padStart(2, '0')}${zone}`);
  if (Number.isNaN(at)) return undefined;
  return { day: localDay(at), hasTime: true, instant: localWallInstant(at) };
}

const RELATIVE: Array<[RegExp, (n: number) => number]> = [
  [/^in (\d+) days?$/, (n) => n],
  [/^(\d+) days? ago$/, (n) => -n],
  [/^in (\d+) weeks?$/, (n) => 7 * n],
  [/^(\d+) weeks? ago$/, (n) => -7 * n],
];
const NAMED: Record<string, number> = {
  today: 0,
  tomorrow: 1,
  yesterday: -1,
  'next week': 7,
  'last week': -7,
};

/**
 * The day a natural-language condition value names, relative to `today` (local): `today`,
 * `tomorrow`, `yesterday`, `next week`, `last week`, `in N day(s)`, `N day(s) ago`,
 * `in N week(s)`, `N week(s) ago`. Undefined when the value is not one of those.
 */
/** Farthest relative date, in days (about 270 years). */
export const MAX_RELATIVE_DAYS = 100_000;

export function resolveRelativeDate(value: string, today: string): string | undefined {
  const text = value.trim().toLowerCase().replace(/\s+/g, ' ');
  const named = NAMED[text];
  if (named !== undefined) return addDays(today, named);
  for (const [re, offset] of RELATIVE) {
    const m = re.exec(text);
    if (!m) continue;
    const days = offset(Number(m[1]));
    // Beyond this a day has no calendar date ("in 99999999 days"): not a date, as any other text.
    return Math.abs(days) <= MAX_RELATIVE_DAYS ? addDays(today, days) : undefined;
  }
  return undefined;
}

/**
 * A condition's date value resolved to something comparable: natural language becomes its day,
 * an explicit date keeps its time part. Undefined when it is neither.
 */
export function resolveConditionDate(value: string, today: string): ParsedDate | undefined {
  const relative = resolveRelativeDate(value, today);
  return parseDate(relative ?? value);
}

/** The date part of a stored value, or undefined when the value is not a date. */
export function dayPart(value: unknown): string | undefined {
  return typeof value === 'string' ? parseDate(value)?.day : undefined;
}

/** `now` as a naive wall-clock instant (local time), comparable with ParsedDate.instant. */
export function localWallInstant(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getFullYear(), d.getMonth(), d.getDate(), d.getHours(), d.getMinutes());
}

/**
 * Whether a due value lies in the past, by the LOCAL clock: a date-only value once its day is
 * over, a date-time once its minute has passed. Not-a-date values are never overdue.
 */
export function isPastDue(value: string | undefined, today: string, now: number): boolean {
  const parsed = value === undefined ? undefined : parseDate(value);
  if (!parsed) return false;
  return parsed.hasTime ? parsed.instant < localWallInstant(now) : parsed.day < today;
}
