/**
 * A recurrence rule bound to its start: the occurrence days of a recurring task. Seed precedence
 * (tasknotes-spec §4.4.1): the DTSTART in the rule, else the day of `scheduled`, else the day of
 * `dateCreated`. Occurrence days are the UTC days of rrule's floating dates (see rule.ts).
 */
import rrulePkg from 'rrule';
import { addDays, dateToDay, dayOf, dayToDate } from './day.js';
import { parseRecurrence, RecurrenceSyntaxError, type ParsedRecurrence } from './rule.js';

const { RRule } = rrulePkg;
type RRuleInstance = InstanceType<typeof RRule>;

/** Occurrences examined past the search start before giving up (a rule may never match). */
const SEARCH_LIMIT = 1000;
/** Hard cap on iterated occurrences overall (guards sub-daily rules started long ago). */
const ITERATION_LIMIT = 200_000;

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
  ) {}

  /** Builds the series of a task; throws RecurrenceSyntaxError for a bad rule or no seed. */
  static of(source: SeedSource): Series {
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
    return new Series(new RRule(options), startDay, parsed.dtstart !== undefined, parsed);
  }

  /** Occurrence days from `startDay` to `endDay`, both included, ascending, without repeats. */
  between(startDay: string, endDay: string): string[] {
    if (endDay < startDay) return [];
    const end = new Date(dayToDate(endDay).getTime() + 86_399_999);
    const days = this.rule.between(dayToDate(startDay), end, true).map(dateToDay);
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
    let iterated = 0;
    // One pass of rrule's iterator: `after()` in a loop would restart from DTSTART each time.
    this.rule.all((date) => {
      if (++iterated > ITERATION_LIMIT) return false;
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
    return this.between(addDays(day, -lookbackDays), day)
      .reverse()
      .find((d) => accept(d));
  }

  /**
   * How far back the reference looks for an instance a date belongs to (tasks.md §2.8): long
   * enough to cover two periods of the rule.
   */
  lookbackDays(): number {
    const interval = this.parsed.options.interval ?? 1;
    switch (this.parsed.options.freq) {
      case RRule.DAILY:
        return Math.max(30, interval * 2);
      case RRule.WEEKLY:
        return Math.max(90, interval * 14);
      case RRule.MONTHLY:
        return Math.max(400, interval * 62);
      case RRule.YEARLY:
        return Math.max(800, interval * 732);
      default:
        return 365;
    }
  }
}
