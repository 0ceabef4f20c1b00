/**
 * The stored `recurrence` string: an RFC 5545 RRULE body (no `RRULE:` prefix) with an optional
 * `DTSTART` part, e.g. `DTSTART:20250110;FREQ=DAILY;INTERVAL=1`. This module splits the DTSTART
 * from the rule and validates the rule strictly, because rrule's own parser silently accepts
 * nonsense such as `FREQ=FOO` or `INTERVAL=abc`.
 *
 * DTSTART values keep TaskNotes' "floating" convention internally: a date-time is represented
 * by its local wall-clock digits in a UTC Date, which is how rrule evaluates rules without a
 * time zone and what keeps occurrence days equal to the user's calendar days. A stored value
 * with `Z` is a real UTC instant (docs/api-decisions.md) and is converted to the server's local wall clock.
 */
import type { RRule } from 'rrule';
import { isDay } from './day.js';
import { rruleClass } from './rrule-package.js';

type RRuleOptions = ReturnType<typeof RRule.parseString>;

export class RecurrenceSyntaxError extends Error {
  override readonly name = 'RecurrenceSyntaxError';
}

/** A DTSTART as a calendar day plus an optional local wall-clock time. */
export interface Dtstart {
  day: string;
  /** Seconds after local midnight; absent for a date-only DTSTART. */
  seconds?: number;
}

export interface ParsedRecurrence {
  dtstart?: Dtstart;
  /** The rule without DTSTART, normalised to `KEY=VALUE;…`. */
  rule: string;
  options: RRuleOptions;
  /** True when UNTIL is date-only: it then covers the whole day (reference behaviour). */
  untilIsDay: boolean;
}

// DTSTART may carry parameters (`DTSTART;VALUE=DATE:20250101`); a TZID is not supported and the
// wall-clock value is taken as local time.
const DTSTART_RE = /(^|[;\n])\s*DTSTART((?:;[A-Za-z-]+=[^:;\n]*)*):([0-9]{8}(?:T[0-9]{6}Z?)?)\s*(?=;|\n|$)/i;

/** True when the string carries a DTSTART part. */
export function hasDtstart(recurrence: string): boolean {
  return DTSTART_RE.test(recurrence);
}

/** Replaces the DTSTART part with `DTSTART:<value>`, or prepends one when there is none. */
export function setDtstartValue(recurrence: string, value: string): string {
  const m = DTSTART_RE.exec(recurrence);
  if (!m) return `DTSTART:${value};${recurrence}`;
  return `${recurrence.slice(0, m.index)}${m[1]}DTSTART:${value}${recurrence.slice(m.index + m[0].length)}`;
}

function parseDtstartValue(raw: string): Dtstart {
  const y = Number(raw.slice(0, 4));
  const mo = Number(raw.slice(4, 6));
  const d = Number(raw.slice(6, 8));
  const day = `${raw.slice(0, 4)}-${raw.slice(4, 6)}-${raw.slice(6, 8)}`;
  if (!isDay(day)) throw new RecurrenceSyntaxError(`Invalid DTSTART value: ${raw}`);
  if (raw.length === 8) return { day };
  const h = Number(raw.slice(9, 11));
  const mi = Number(raw.slice(11, 13));
  const s = Number(raw.slice(13, 15));
  if (h > 23 || mi > 59 || s > 59) throw new RecurrenceSyntaxError(`Invalid DTSTART value: ${raw}`);
  if (!raw.toUpperCase().endsWith('Z')) return { day, seconds: h * 3600 + mi * 60 + s };
  const local = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  const pad = (n: number): string => String(n).padStart(2, '0');
  return {
    day: `${local.getFullYear()}-${pad(local.getMonth() + 1)}-${pad(local.getDate())}`,
    seconds: local.getHours() * 3600 + local.getMinutes() * 60 + local.getSeconds(),
  };
}

const FREQS = new Set(['YEARLY', 'MONTHLY', 'WEEKLY', 'DAILY']);
/**
 * Instances are whole days (tasknotes-spec §4.5), so a rule finer than daily says nothing a daily
 * rule cannot, and evaluating one is many times the work: it is refused with its own message.
 */
const SUB_DAILY = new Set(['HOURLY', 'MINUTELY', 'SECONDLY']);
/** Longest recurrence string: a real rule is well under 200 characters. */
export const MAX_RECURRENCE_LENGTH = 1000;
/** Most occurrences a rule may produce within one day (BYHOUR × BYMINUTE × BYSECOND). */
const MAX_TIMES_PER_DAY = 24;
const WEEKDAY = '(MO|TU|WE|TH|FR|SA|SU)';
const CHECKS: Record<string, RegExp> = {
  FREQ: /^[A-Z]+$/,
  INTERVAL: /^[1-9][0-9]*$/,
  COUNT: /^[1-9][0-9]*$/,
  UNTIL: /^[0-9]{8}(T[0-9]{6}Z?)?$/,
  WKST: new RegExp(`^${WEEKDAY}$`),
  BYDAY: new RegExp(`^[+-]?[0-9]{0,2}${WEEKDAY}(,[+-]?[0-9]{0,2}${WEEKDAY})*$`),
};
const INT_LIST = /^[+-]?[0-9]+(,[+-]?[0-9]+)*$/;
const INT_LIST_KEYS = new Set([
  'BYMONTH',
  'BYMONTHDAY',
  'BYYEARDAY',
  'BYWEEKNO',
  'BYHOUR',
  'BYMINUTE',
  'BYSECOND',
  'BYSETPOS',
]);

function normaliseRule(body: string): string {
  const parts = body
    .split(/[;\n]/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const seen = new Set<string>();
  const out: string[] = [];
  for (const part of parts) {
    const eq = part.indexOf('=');
    if (eq <= 0) throw new RecurrenceSyntaxError(`Invalid recurrence rule part: ${part}`);
    const key = part.slice(0, eq).toUpperCase();
    const value = part.slice(eq + 1).toUpperCase();
    if (seen.has(key)) throw new RecurrenceSyntaxError(`Duplicate recurrence rule part: ${key}`);
    seen.add(key);
    const check = CHECKS[key] ?? (INT_LIST_KEYS.has(key) ? INT_LIST : undefined);
    if (!check) throw new RecurrenceSyntaxError(`Unknown recurrence rule part: ${key}`);
    if (key === 'FREQ' && SUB_DAILY.has(value)) {
      throw new RecurrenceSyntaxError(
        `Recurrence finer than daily (FREQ=${value}) is not supported: instances are whole days`,
      );
    }
    if (!check.test(value) || (key === 'FREQ' && !FREQS.has(value))) {
      throw new RecurrenceSyntaxError(`Invalid ${key} value: ${part.slice(eq + 1)}`);
    }
    out.push(`${key}=${value}`);
  }
  if (!seen.has('FREQ')) throw new RecurrenceSyntaxError('Recurrence rule has no FREQ');
  const timesOfDay = ['BYHOUR', 'BYMINUTE', 'BYSECOND']
    .map((key) => out.find((p) => p.startsWith(`${key}=`))?.split(',').length ?? 1)
    .reduce((a, b) => a * b, 1);
  if (timesOfDay > MAX_TIMES_PER_DAY) {
    throw new RecurrenceSyntaxError(
      `Recurrence has ${timesOfDay} times of day (BYHOUR × BYMINUTE × BYSECOND); at most ${MAX_TIMES_PER_DAY}`,
    );
  }
  if (seen.has('COUNT') && seen.has('UNTIL')) {
    throw new RecurrenceSyntaxError('Recurrence rule cannot have both COUNT and UNTIL');
  }
  return out.join(';');
}

/** Parses and validates a stored recurrence string; throws RecurrenceSyntaxError. */
export function parseRecurrence(text: string): ParsedRecurrence {
  if (text.length > MAX_RECURRENCE_LENGTH) {
    throw new RecurrenceSyntaxError(`Recurrence is too long (at most ${MAX_RECURRENCE_LENGTH} characters)`);
  }
  let body = text.trim();
  let dtstart: Dtstart | undefined;
  const m = DTSTART_RE.exec(body);
  if (m) {
    dtstart = parseDtstartValue(m[3] ?? '');
    body = `${body.slice(0, m.index)}${m[1]}${body.slice(m.index + m[0].length)}`;
  }
  if (hasDtstart(body)) throw new RecurrenceSyntaxError('Recurrence has more than one DTSTART');
  body = body.replace(/(^|[;\n])\s*RRULE:/i, '$1');
  const rule = normaliseRule(body);
  let options: RRuleOptions;
  try {
    options = rruleClass().parseString(rule);
  } catch (err) {
    throw new RecurrenceSyntaxError(err instanceof Error ? err.message : String(err));
  }
  return { dtstart, rule, options, untilIsDay: /(^|;)UNTIL=[0-9]{8}(;|$)/.test(rule) };
}

/** True when `text` is a recurrence string this engine can evaluate. */
export function isValidRecurrence(text: unknown): text is string {
  if (typeof text !== 'string' || text.trim() === '') return false;
  try {
    parseRecurrence(text);
    return true;
  } catch {
    return false;
  }
}
