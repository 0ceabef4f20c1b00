/**
 * A recurrence rule bound to its start: the occurrence days of a recurring task. Seed precedence
 * (tasknotes-spec §4.4.1): the DTSTART in the rule, else the day of `scheduled`, else the day of
 * `dateCreated`. Occurrence days are the UTC days of rrule's floating dates (see rule.ts).
 *
 * Every evaluation is bounded (docs/security.md): rrule walks a rule period by period from its
 * DTSTART and stops only at an occurrence past the window, so a window far from the start, or a
 * rule that never matches (`FREQ=DAILY;INTERVAL=7;BYDAY=TU` started on a Monday), made it walk to
 * the year 9999 — measured 13 s for one never-matching daily rule, minutes for `FREQ=SECONDLY` from
 * 1970. Two measures bound it:
 *   - a window is evaluated by a copy of the rule started at the first period (same interval phase)
 *     that contains the window's first day: the same occurrences there, without walking the years
 *     before it (rules with COUNT count from their first occurrence and keep their start);
 *   - one evaluation walks at most PERIOD_BUDGET periods; a search that finds nothing by then
 *     answers "no occurrence".
 */
import type { RRule as RRuleClass } from 'rrule';
import { addDays, dateToDay, daysBetween, dayOf, dayToDate } from './day.js';
import { rruleClass } from './rrule-package.js';
import { parseRecurrence, RecurrenceSyntaxError, type ParsedRecurrence } from './rule.js';

type RRuleInstance = InstanceType<typeof RRuleClass>;
type RRuleOptions = RRuleInstance['origOptions'];

/** Occurrences examined past the search start before giving up (a rule may never match). */
const SEARCH_LIMIT = 1000;
/**
 * Periods (days of a daily rule, weeks of a weekly one…) one search ahead may walk: 5 years of a
 * daily rule, 38 of a weekly one. rrule needed 2–5 µs per period here once optimised, and up to
 * ~100 µs while a fresh process still runs it unoptimised on a loaded machine (2 shared cores);
 * a request makes at most a handful of searches.
 */
export const PERIOD_BUDGET = 2_000;
/** Longest window `between` evaluates, and the longest look-back of `lookbackDays`. */
export const MAX_WINDOW_DAYS = 3660;

const DAY_MS = 86_400_000;
/** Parts rrule derives from DTSTART when a rule leaves them out; a moved start must keep them. */
const DERIVED = ['bymonth', 'bymonthday', 'byweekday', 'byhour', 'byminute', 'bysecond'] as const;

/** An rrule rule for `options`, with rrule's cache of results off (its `noCache` argument). */
function newRule(options: Partial<RRuleOptions>): RRuleInstance {
  const RRule = rruleClass();
  return new RRule(options, true);
}

/**
 * Makes `rule` stop after walking `periods` periods. rrule reads `options.interval` once when it
 * starts and twice per period (the stop check and the step), and ends the walk when it reads 0;
 * the rule's options are wrapped so that the read after the budget answers 0. The unit tests of
 * this module walk a never-matching rule with a small budget, so a change in rrule shows there.
 */
function withBudget(rule: RRuleInstance, periods: number): RRuleInstance {
  let reads = 0;
  const limit = 1 + 2 * periods;
  const interval = rule.options.interval;
  // An accessor on a plain copy, not a Proxy: rrule reads the other options for every day it
  // looks at, and a Proxy made each of those reads ~10x slower.
  const options = { ...rule.options };
  Object.defineProperty(options, 'interval', {
    get: () => (++reads > limit ? 0 : interval),
    enumerable: true,
  });
  rule.options = options;
  return rule;
}

export interface SeedSource {
  recurrence: string;
  scheduled?: string;
  dateCreated?: string;
}

export class Series {
  private constructor(
    private readonly rule: RRuleInstance,
    /** The day of the rule's start. */
    readonly startDay: string,
    /** True when the start came from a DTSTART in the rule (not from scheduled/dateCreated). */
    readonly explicitStart: boolean,
    readonly parsed: ParsedRecurrence,
    private readonly budget: number,
  ) {}

  /**
   * Builds the series of a task; throws RecurrenceSyntaxError for a bad rule or no seed. `budget`
   * (periods walked per evaluation) is for tests.
   */
  static of(source: SeedSource, budget = PERIOD_BUDGET): Series {
    const parsed = parseRecurrence(source.recurrence);
    const startDay = parsed.dtstart?.day ?? dayOf(source.scheduled) ?? dayOf(source.dateCreated);
    if (!startDay) {
      throw new RecurrenceSyntaxError('Recurrence has no start: no DTSTART, scheduled or dateCreated');
    }
    const dtstart = new Date(dayToDate(startDay).getTime() + (parsed.dtstart?.seconds ?? 0) * 1000);
    const options = { ...parsed.options, dtstart };
    if (parsed.untilIsDay && options.until) {
      options.until = new Date(options.until.getTime() + 86_399_999);
    }
    return new Series(newRule(options), startDay, parsed.dtstart !== undefined, parsed, budget);
  }

  /** Occurrence days from `startDay` to `endDay`, both included (at most MAX_WINDOW_DAYS), ascending. */
  between(startDay: string, endDay: string): string[] {
    if (endDay < startDay) return [];
    const last =
      daysBetween(startDay, endDay) >= MAX_WINDOW_DAYS ? addDays(startDay, MAX_WINDOW_DAYS - 1) : endDay;
    const end = new Date(dayToDate(last).getTime() + 86_399_999);
    const rule = this.ruleFrom(startDay, this.periodsIn(daysBetween(startDay, last) + 1));
    const days = rule.between(dayToDate(startDay), end, true).map(dateToDay);
    return [...new Set(days)];
  }

  occursOn(day: string): boolean {
    return this.between(day, day).length > 0;
  }

  /** The first occurrence day on or after `day` that `accept` takes, if one exists. */
  firstFrom(day: string, accept: (day: string) => boolean = () => true): string | undefined {
    const from = dayToDate(day).getTime();
    let found: string | undefined;
    let examined = 0;
    // One pass of rrule's iterator: `after()` in a loop would restart from DTSTART each time.
    this.ruleFrom(day).all((date) => {
      if (date.getTime() < from) return true;
      const candidate = dateToDay(date);
      if (accept(candidate)) {
        found = candidate;
        return false;
      }
      return ++examined < SEARCH_LIMIT;
    });
    return found;
  }

  /** The last occurrence day in [`day` − `lookbackDays`, `day`] that `accept` takes. */
  lastUpTo(day: string, lookbackDays: number, accept: (day: string) => boolean): string | undefined {
    return this.between(addDays(day, -Math.min(lookbackDays, MAX_WINDOW_DAYS - 1)), day)
      .reverse()
      .find((d) => accept(d));
  }

  /**
   * How far back the TaskNotes plugin looks for an instance a date belongs to: long
   * enough to cover two periods of the rule, and never more than MAX_WINDOW_DAYS.
   */
  lookbackDays(): number {
    const interval = this.parsed.options.interval ?? 1;
    const { DAILY, WEEKLY, MONTHLY, YEARLY } = rruleClass();
    switch (this.parsed.options.freq) {
      case DAILY:
        return Math.min(MAX_WINDOW_DAYS - 1, Math.max(30, interval * 2));
      case WEEKLY:
        return Math.min(MAX_WINDOW_DAYS - 1, Math.max(90, interval * 14));
      case MONTHLY:
        return Math.min(MAX_WINDOW_DAYS - 1, Math.max(400, interval * 62));
      case YEARLY:
        return Math.min(MAX_WINDOW_DAYS - 1, Math.max(800, interval * 732));
      default:
        return 365;
    }
  }

  /**
   * A budgeted rule with the same occurrences as this one from the period that contains `day` on:
   * the start moves to the first day of the latest period (counted in whole intervals from the
   * real start) that begins on or before `day`.
   */
  private ruleFrom(day: string, periods = this.budget): RRuleInstance {
    const base = this.rule;
    const start = base.options.dtstart;
    // A rule with COUNT counts from its first occurrence, so it keeps its start and its full budget.
    const counted = base.origOptions.count != null;
    const moved = counted ? undefined : this.periodStartOn(dayToDate(day), start);
    if (counted) periods = this.budget;
    if (moved === undefined || moved.getTime() <= start.getTime()) {
      return withBudget(newRule(base.origOptions), periods);
    }
    const options: Partial<RRuleOptions> = { ...base.origOptions, dtstart: moved };
    for (const key of DERIVED) {
      const derived = base.options[key];
      if (base.origOptions[key] == null && Array.isArray(derived) && derived.length > 0) {
        (options as Record<string, unknown>)[key] = derived;
      }
    }
    return withBudget(newRule(options), periods);
  }

  /**
   * An upper bound of the periods a window of `days` days touches from the period that contains
   * its first day: a window needs no walk beyond them, whether or not the rule matches there.
   */
  private periodsIn(days: number): number {
    const { DAILY, WEEKLY, MONTHLY, YEARLY } = rruleClass();
    const shortest: Record<number, number> = { [DAILY]: 1, [WEEKLY]: 7, [MONTHLY]: 28, [YEARLY]: 365 };
    const length = (shortest[this.rule.options.freq] ?? 1) * this.rule.options.interval;
    return Math.ceil(days / length) + 2;
  }

  /** 00:00 of the first day of the rule's latest period beginning on or before `at`. */
  private periodStartOn(at: Date, start: Date): Date | undefined {
    const interval = this.rule.options.interval;
    const y0 = start.getUTCFullYear();
    const m0 = start.getUTCMonth();
    const { DAILY, WEEKLY, MONTHLY, YEARLY } = rruleClass();
    switch (this.rule.options.freq) {
      case YEARLY: {
        const k = Math.floor((at.getUTCFullYear() - y0) / interval);
        return new Date(Date.UTC(y0 + k * interval, 0, 1));
      }
      case MONTHLY: {
        const k = Math.floor((at.getUTCFullYear() * 12 + at.getUTCMonth() - (y0 * 12 + m0)) / interval);
        const month = y0 * 12 + m0 + k * interval;
        return new Date(Date.UTC(Math.floor(month / 12), month % 12, 1));
      }
      case WEEKLY: {
        const wkst = this.rule.options.wkst;
        const weekStart = (d: Date): number => {
          const midnight = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
          return midnight - ((((d.getUTCDay() + 6 - wkst) % 7) + 7) % 7) * DAY_MS;
        };
        const first = weekStart(start);
        const k = Math.floor((weekStart(at) - first) / (7 * DAY_MS * interval));
        return new Date(first + k * 7 * DAY_MS * interval);
      }
      case DAILY: {
        const first = Date.UTC(y0, m0, start.getUTCDate());
        const k = Math.floor((at.getTime() - first) / (DAY_MS * interval));
        return new Date(first + k * DAY_MS * interval);
      }
      default:
        return undefined;
    }
  }
}
