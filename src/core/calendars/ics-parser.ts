/**
 * ICS text → calendar events (as in the TaskNotes plugin), with ical.js.
 *
 * - Zones: VTIMEZONE blocks in the file are used by ical.js directly; TZIDs without a block are
 *   resolved through time-zones.ts (IANA names, Windows names, "(UTC+01:00)" labels). Floating
 *   times (no zone) are in the calendar's zone when it names one that resolves (X-WR-TIMEZONE,
 *   which Apple's, Google's and Outlook's calendars honour the same way), else in the machine's.
 * - Recurring events are expanded from DTSTART up to `now + horizonDays`, keeping at most
 *   `maxInstances` of a series: those from a month before now on first. EXDATEs are skipped by
 *   ical.js's expansion; RECURRENCE-ID overrides replace their occurrence (matched on the UTC
 *   instant, so an override written in another zone than the master still matches).
 * - Cancelled events and events an attendee declined are skipped, as in the reference.
 */
import ICAL from 'ical.js';
import type { CalendarEvent } from './types.js';
import { resolveTzid, utcToWallTime, wallTimeToUtc, type ResolvedZone } from './time-zones.js';

type Component = InstanceType<typeof ICAL.Component>;
type Time = InstanceType<typeof ICAL.Time>;
type Duration = InstanceType<typeof ICAL.Duration>;
type Property = InstanceType<typeof ICAL.Property>;

export interface ParseIcsOptions {
  subscriptionId: string;
  /** Expansion end is `now + horizonDays`. */
  now: number;
  horizonDays?: number;
  /** Most instances kept per recurring event (those around now; see eventInstances). */
  maxInstances?: number;
  /**
   * Most occurrences of one series looked at, and of all the feed's series together: the
   * iterator takes 6-12 µs an occurrence, and a feed's read is given up after 10 s
   * (ics-parse-bounded.ts). 50,000 reach 137 years of a daily series, 5.7 of an hourly one.
   */
  maxIterations?: number;
  /** See maxIterations. */
  feedIterations?: number;
}

export const INVALID_ICS = 'Invalid ICS format';

/** Instances of a series from this long before now on are kept first (see eventInstances). */
const RECENT_MS = 30 * 86_400_000;

const pad = (n: number): string => String(n).padStart(2, '0');
const dateString = (t: Time): string => `${t.year}-${pad(t.month)}-${pad(t.day)}`;

function tzidOf(component: Component, name: string): string | undefined {
  const value = component.getFirstProperty(name)?.getParameter('tzid');
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Whether ical.js reads `t` in no zone it knows: a floating time, or a TZID without VTIMEZONE. */
function floatingOrUnknown(t: Time): boolean {
  const zone = t.zone;
  return !zone || zone === ICAL.Timezone.localTimezone || zone.tzid === 'floating';
}

/** UTC milliseconds of a date-time, honouring the zone rules described above. */
function utcMillis(t: Time, tzid: string | undefined): number {
  if (!floatingOrUnknown(t)) return t.toUnixTime() * 1000;
  if (tzid) {
    const resolved = resolveTzid(tzid);
    if (resolved) return wallTimeToUtc(t, resolved);
  }
  return new Date(t.year, t.month - 1, t.day, t.hour, t.minute, t.second).getTime();
}

const render = (t: Time, tzid: string | undefined): string =>
  t.isDate ? dateString(t) : new Date(utcMillis(t, tzid)).toISOString();

/** Key that identifies an occurrence regardless of the zone it is written in. */
const occurrenceKey = (t: Time, tzid: string | undefined): string =>
  t.isDate ? `D${dateString(t)}` : `T${utcMillis(t, tzid)}`;

/**
 * Whether an event is left out: cancelled, or declined by the calendar's owner. The reference
 * left out an event any attendee declined, which hid every meeting one guest could not attend.
 * A feed does not say whose calendar it is, except Google's, whose X-WR-CALNAME is the owner's
 * address (`owner`); otherwise an event counts as declined when every attendee declined it
 * (a feed with its owner as the only attendee, or an invitation everyone turned down).
 */
function isSkipped(vevent: Component, owner: string | undefined): boolean {
  const status = vevent.getFirstPropertyValue('status');
  if (typeof status === 'string' && status.toUpperCase() === 'CANCELLED') return true;
  const declined = (a: Property): boolean => {
    const partstat = a.getParameter('partstat');
    return typeof partstat === 'string' && partstat.toUpperCase() === 'DECLINED';
  };
  const attendees = vevent.getAllProperties('attendee');
  if (owner !== undefined) {
    const own = attendees.filter((a) => addressOf(a) === owner);
    if (own.length > 0) return own.every(declined);
  }
  return attendees.length > 0 && attendees.every(declined);
}

/**
 * The occurrences a series' EXDATEs remove, by occurrenceKey (a DATE removes its whole day).
 * ical.js removes them too, but walks its sorted EXDATE list one step per occurrence: an EXDATE
 * listed twice, or one that is no occurrence, made it keep the next excluded occurrence.
 */
function exdatesOf(vevent: Component, calendarZone: string | undefined): Set<string> {
  const keys = new Set<string>();
  for (const property of vevent.getAllProperties('exdate')) {
    const tzid = property.getParameter('tzid');
    for (const value of property.getValues()) {
      if (value instanceof ICAL.Time)
        keys.add(occurrenceKey(value, typeof tzid === 'string' && tzid !== '' ? tzid : calendarZone));
    }
  }
  return keys;
}

/** An ATTENDEE's address, lower-cased, without `mailto:`. */
function addressOf(attendee: Property): string {
  const value = attendee.getFirstValue();
  return typeof value === 'string'
    ? value
        .replace(/^mailto:/i, '')
        .trim()
        .toLowerCase()
    : '';
}

/** The zone the calendar gives for its floating times (X-WR-TIMEZONE), when it resolves. */
function calendarZoneOf(root: Component): string | undefined {
  const name = root.getFirstPropertyValue('x-wr-timezone');
  return typeof name === 'string' && resolveTzid(name) !== undefined ? name : undefined;
}

/** The calendar owner's address, where the calendar's name is one (Google's feeds). */
function ownerOf(root: Component): string | undefined {
  const name = root.getFirstPropertyValue('x-wr-calname');
  return typeof name === 'string' && /^[^\s@]+@[^\s@]+$/.test(name.trim())
    ? name.trim().toLowerCase()
    : undefined;
}

function text(vevent: Component, name: string): string | undefined {
  const v = vevent.getFirstPropertyValue(name);
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** Title, description, location and url of an event, from `own` falling back to `base`. */
function details(
  own: Component,
  base: Component = own,
): Omit<CalendarEvent, 'id' | 'subscriptionId' | 'start' | 'allDay'> {
  const pick = (name: string): string | undefined => text(own, name) ?? text(base, name);
  const out: Omit<CalendarEvent, 'id' | 'subscriptionId' | 'start' | 'allDay'> = {
    title: pick('summary') ?? 'Untitled Event',
  };
  const description = pick('description');
  const location = pick('location');
  const url = pick('url');
  if (description) out.description = description;
  if (location) out.location = location;
  if (url) out.url = url;
  return out;
}

/**
 * The occurrences of a recurring event as ical.js gives them, as times. RFC 5545 counts DTSTART
 * as the first instance of every series, but ical.js leaves it out of a series given by RDATEs
 * alone; and it gives an RDATE period (`VALUE=PERIOD`) as a period, whose start is the occurrence
 * and whose end is put in `ends` for it.
 */
function occurrencesOf(
  event: InstanceType<typeof ICAL.Event>,
  vevent: Component,
  dtstart: Time,
  ends: Map<Time, Time>,
): { next(): Time | null } {
  const inner = event.iterator();
  const ruled = vevent.hasProperty('rrule');
  let first: Time | undefined = ruled ? undefined : dtstart;
  return {
    next() {
      if (first) {
        const start = first;
        first = undefined;
        return start;
      }
      for (;;) {
        const value: unknown = inner.next();
        if (!value) return null;
        const time = value instanceof ICAL.Period ? value.start : (value as Time);
        // DTSTART given again as an RDATE is one instance.
        if (!ruled && time.compare(dtstart) === 0) continue;
        if (value instanceof ICAL.Period) ends.set(time, value.getEnd());
        return time;
      }
    },
  };
}

/**
 * An RRULE's UNTIL in UTC (`…Z`, the form RFC 5545 asks for when DTSTART has a zone) is compared
 * by ical.js with occurrences in a zone it does not know (a TZID without its VTIMEZONE, a floating
 * time) as if their wall times were UTC: east of UTC the last occurrence was lost, west of it one
 * past the end could be added. Such an UNTIL is rewritten as the wall time, in the zone those
 * occurrences are read in (see utcMillis), of the instant it names.
 */
function untilInWallTime(vevent: Component, dtstart: Time, tzid: string | undefined): void {
  if (dtstart.isDate || !floatingOrUnknown(dtstart)) return;
  const resolved = tzid === undefined ? undefined : resolveTzid(tzid);
  for (const property of vevent.getAllProperties('rrule')) {
    const recur = property.getFirstValue();
    const until = recur instanceof ICAL.Recur ? recur.until : null;
    if (!until || until.isDate || until.zone !== ICAL.Timezone.utcTimezone) continue;
    const wall = wallTimeAt(until.toUnixTime() * 1000, resolved);
    (recur as InstanceType<typeof ICAL.Recur>).until = ICAL.Time.fromData({ ...wall, isDate: false });
  }
}

/** The wall time at `ms` in `zone`, or in the machine's zone (floating times' fallback). */
const wallTimeAt = (ms: number, zone: ResolvedZone | undefined) =>
  utcToWallTime(ms, zone ?? { offsetMinutes: -new Date(ms).getTimezoneOffset() });

function hasEnd(vevent: Component): boolean {
  return vevent.hasProperty('dtend') || vevent.hasProperty('duration');
}

function plus(t: Time, d: Duration): Time {
  const end = t.clone();
  end.addDuration(d);
  return end;
}

/**
 * What a feed gave: its events, how many of its events could not be read (the first error), and
 * how many series had more occurrences than are expanded (see maxIterations): the first one's
 * name and its last occurrence looked at, after which its instances are missing.
 */
export interface ParsedIcs {
  events: CalendarEvent[];
  skipped: number;
  firstError?: string;
  cutShort?: number;
  firstCutShort?: { name?: string; after: string };
}

export function parseIcs(source: string, options: ParseIcsOptions): CalendarEvent[] {
  return parseIcsDetailed(source, options).events;
}

/**
 * Reads a feed; an event that cannot be read (a DTSTART that is no date, an RRULE with an
 * unknown FREQ) is left out and counted, rather than taking the feed's other events with it.
 * Throws INVALID_ICS only when the calendar itself cannot be read.
 */
export function parseIcsDetailed(source: string, options: ParseIcsOptions): ParsedIcs {
  const skipped = { count: 0, first: undefined as string | undefined };
  const skip: Skip = (err, name) => {
    skipped.count += 1;
    const message = err instanceof Error ? err.message : String(err);
    const shown = name === undefined || name === '' ? '' : `event "${name.slice(0, NAME_CHARS)}": `;
    skipped.first ??= `${shown}${message}`;
  };
  const cut = { count: 0, first: undefined as ParsedIcs['firstCutShort'] };
  const cutShort: CutShort = (after, name) => {
    cut.count += 1;
    cut.first ??= {
      ...(name === undefined || name === '' ? {} : { name: name.slice(0, NAME_CHARS) }),
      after,
    };
  };
  const root = readCalendar(source, skip);
  const events = eventsOf(root, options, skip, cutShort);
  return {
    events,
    skipped: skipped.count,
    ...(skipped.first === undefined ? {} : { firstError: skipped.first }),
    ...(cut.first === undefined ? {} : { cutShort: cut.count, firstCutShort: cut.first }),
  };
}

/** Counts a series whose expansion stopped at a limit, at the occurrence `after` (ISO). */
type CutShort = (after: string, name?: string) => void;

const VEVENT_BLOCK = /^BEGIN:VEVENT\r?\n[\s\S]*?^END:VEVENT\r?(?:\n|$)/gim;

/** Counts an event left out; `name` (its SUMMARY, else its UID) says which, when it could be read. */
type Skip = (err: unknown, name?: string) => void;

/** Most characters of an event's name in the error that names it. */
const NAME_CHARS = 80;

/** An unfolded SUMMARY or UID line of an event's text. */
const nameIn = (block: string): string | undefined =>
  (/^SUMMARY[^:\r\n]*:(.*)$/m.exec(block) ?? /^UID[^:\r\n]*:(.*)$/m.exec(block))?.[1]?.trim();

/** The properties of an event whose values are dates or date-times that place it. */
const TIME_PROPERTIES = ['dtstart', 'dtend', 'recurrence-id', 'exdate', 'rdate'];
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z?$/;

/**
 * Throws when one of the event's dates or date-times is not a real one. ical.js reads a malformed
 * value by its character positions and rolls an impossible one over, placing the event on another
 * day without a word: `2026-12-26` for a DATE became 2 November 2025, month 13 January of the
 * next year, 30 February 2 March. Its values are checked in ical.js's own form (jCal:
 * `2026-12-26`, `2026-12-26T09:00:00Z`), which keeps what the feed wrote in those positions.
 */
function assertRealTimes(vevent: Component): void {
  for (const name of TIME_PROPERTIES) {
    for (const property of vevent.getAllProperties(name)) {
      const type = property.type;
      if (type !== 'date' && type !== 'date-time') continue;
      for (const value of property.jCal.slice(3)) {
        if (!isRealTime(type, value)) {
          const form = type === 'date' ? 'YYYYMMDD' : 'YYYYMMDDTHHMMSS';
          throw new Error(`${name.toUpperCase()} is not a real ${type} (${form})`);
        }
      }
    }
  }
}

function isRealTime(type: 'date' | 'date-time', value: unknown): boolean {
  const match = typeof value === 'string' ? (type === 'date' ? DATE : DATE_TIME).exec(value) : null;
  if (!match) return false;
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0] = match.slice(1).map(Number);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const daysInMonth = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  // A second of 60 is a leap second, which RFC 5545 allows.
  const timeOk = hour <= 23 && minute <= 59 && second <= 60;
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth && timeOk;
}

/** An event's SUMMARY, else its UID, when they can be read. */
function nameOf(vevent: Component): string | undefined {
  try {
    return text(vevent, 'summary') || text(vevent, 'uid') || undefined;
  } catch {
    return undefined;
  }
}

/**
 * The calendar of `source`. ical.js reads some values as it parses (an RRULE), so one bad event
 * fails the whole parse: then each event is read on its own, beside the calendar's other parts
 * (its time zones), and the calendar is put together from those that read.
 */
function readCalendar(feed: string, skip: Skip): Component {
  const source = markBareDates(feed);
  const parse = (text: string): Component => {
    const root = new ICAL.Component(ICAL.parse(text));
    if (root.name !== 'vcalendar') throw new Error(INVALID_ICS);
    return root;
  };
  try {
    return parse(source);
  } catch {
    // Read event by event below.
  }
  const blocks = source.match(VEVENT_BLOCK) ?? [];
  const frame = source.replace(VEVENT_BLOCK, '');
  let root: Component;
  try {
    root = parse(frame);
  } catch {
    throw new Error(INVALID_ICS);
  }
  const [head, tail] = splitAtEnd(frame);
  for (const block of blocks) {
    try {
      const one = parse(`${head}${block.endsWith('\n') ? block : `${block}\r\n`}${tail}`);
      for (const vevent of one.getAllSubcomponents('vevent')) root.addSubcomponent(vevent);
    } catch (err) {
      skip(err, nameIn(block));
    }
  }
  return root;
}

/**
 * A date written without `VALUE=DATE` (`DTSTART:20260110`) is not allowed by RFC 5545, whose
 * default type is a date-time, but calendar programs (Google's, Apple's) read it as that day, and
 * feeds made by hand or by small libraries write it. ical.js reads it as a date-time from garbage
 * (the event was left out): such values are marked as the dates they are.
 */
function markBareDates(source: string): string {
  return source.replace(BARE_DATE, (line: string, name: string, params: string, rest: string) =>
    /;VALUE=/i.test(params) ? line : `${name}${params};VALUE=DATE:${rest}`,
  );
}

const BARE_DATE =
  /^(DTSTART|DTEND|DUE|EXDATE|RDATE|RECURRENCE-ID)((?:;[^:\r\n]*)?):(\d{8}(?:,\d{8})*\r?)$/gim;

/** `frame` cut before its last END:VCALENDAR line. */
function splitAtEnd(frame: string): [string, string] {
  let at = -1;
  for (const match of frame.matchAll(/^END:VCALENDAR/gim)) at = match.index;
  return at === -1 ? [frame, ''] : [frame.slice(0, at), frame.slice(at)];
}

/** An override with RANGE=THISANDFUTURE: its RECURRENCE-ID (and that instant) and itself. */
interface RangeOverride {
  at: number;
  rid: Time;
  component: Component;
}

function eventsOf(
  root: Component,
  options: ParseIcsOptions,
  skip: Skip,
  cutShort: CutShort,
): CalendarEvent[] {
  const { subscriptionId, now } = options;
  const horizon = now + (options.horizonDays ?? 365) * 86_400_000;
  const maxInstances = options.maxInstances ?? 3000;
  const maxIterations = options.maxIterations ?? 50_000;
  const iterations = { left: options.feedIterations ?? 500_000 };

  const owner = ownerOf(root);
  const calendarZone = calendarZoneOf(root);
  /** The zone a floating value of `component`'s `name` property is read in (see utcMillis). */
  const zoneOf = (component: Component, name: string): string | undefined =>
    tzidOf(component, name) ?? calendarZone;
  const vevents = root.getAllSubcomponents('vevent');
  /** UIDs of the series (and single events) in the feed, to tell overrides without one. */
  const masters = new Set<string>();
  const overrides = new Map<string, Map<string, Component>>();
  /** Overrides of their occurrence and every later one (RANGE=THISANDFUTURE), by UID, in order. */
  const rangeOverrides = new Map<string, RangeOverride[]>();
  const unreadable = new Set<Component>();
  for (const v of vevents) {
    try {
      assertRealTimes(v);
      const uid = text(v, 'uid');
      const rid = v.getFirstPropertyValue('recurrence-id');
      if (uid && !v.hasProperty('recurrence-id')) masters.add(uid);
      if (!uid || !(rid instanceof ICAL.Time)) continue;
      let byKey = overrides.get(uid);
      if (!byKey) overrides.set(uid, (byKey = new Map()));
      byKey.set(occurrenceKey(rid, zoneOf(v, 'recurrence-id')), v);
      if (/^THISANDFUTURE$/i.test(String(v.getFirstProperty('recurrence-id')?.getParameter('range') ?? ''))) {
        const list = rangeOverrides.get(uid) ?? [];
        rangeOverrides.set(uid, list);
        list.push({ at: utcMillis(rid, zoneOf(v, 'recurrence-id')), rid, component: v });
      }
    } catch (err) {
      unreadable.add(v);
      skip(err, nameOf(v));
    }
  }
  for (const list of rangeOverrides.values()) list.sort((a, b) => a.at - b.at);

  const events: CalendarEvent[] = [];
  vevents.forEach((vevent, index) => {
    if (unreadable.has(vevent)) return;
    try {
      events.push(...eventInstances(vevent, index));
    } catch (err) {
      skip(err, nameOf(vevent));
    }
  });
  return events;

  /** The event, or the instances of a series, that `vevent` gives. */
  function eventInstances(vevent: Component, index: number): CalendarEvent[] {
    const uid = text(vevent, 'uid');
    const rid = vevent.getFirstPropertyValue('recurrence-id');
    // An override replaces its occurrence of the series, unless the feed lacks the series: an
    // invitation to one occurrence only, which Google exports that way. Then it is an event of
    // its own, an instance of a series that is not there.
    const orphan = rid instanceof ICAL.Time && uid !== undefined && !masters.has(uid);
    if ((vevent.hasProperty('recurrence-id') && !orphan) || isSkipped(vevent, owner)) return [];
    const dtstart = vevent.getFirstPropertyValue('dtstart');
    if (!(dtstart instanceof ICAL.Time)) return [];
    const seriesId = uid ? `${subscriptionId}-${uid}` : `${subscriptionId}-${subscriptionId}-${index}`;
    // An orphan is one occurrence of its series: its id names which.
    const eventId = orphan ? `${seriesId}-${occurrenceKey(rid, zoneOf(vevent, 'recurrence-id'))}` : seriesId;
    const startTz = zoneOf(vevent, 'dtstart');
    const endTz = tzidOf(vevent, 'dtend') ?? startTz;
    // Overrides are matched above (byKey). Left to itself, ical.js relates every RECURRENCE-ID
    // event of the feed to each event it reads, whatever its UID: a feed of 4,000 events and
    // 1,000 overrides took 3 s in this constructor, 2 ms without.
    untilInWallTime(vevent, dtstart, startTz);
    const event = new ICAL.Event(vevent, { exceptions: [] });
    const base = { subscriptionId, allDay: dtstart.isDate };

    if (orphan || !event.isRecurring()) {
      const single: CalendarEvent = {
        id: eventId,
        ...base,
        ...details(vevent),
        start: render(dtstart, startTz),
      };
      if (hasEnd(vevent)) single.end = render(event.endDate, endTz);
      if (orphan) single.recurringEventId = seriesId;
      return [single];
    }

    const duration = event.duration;
    const withEnd = hasEnd(vevent);
    const byKey = (uid && overrides.get(uid)) || new Map<string, Component>();
    const ranges = (uid && rangeOverrides.get(uid)) || [];
    /**
     * The override that changes the occurrence at `at` from an earlier one on: the latest
     * THISANDFUTURE override at or before it (none in most series: an empty list).
     */
    const rangeAt = (at: number): RangeOverride | undefined => {
      let found;
      for (const range of ranges) {
        if (range.at > at) break;
        found = range;
      }
      return found;
    };
    /** One instance of the series: `occurrence` as the rule gives it, `id` its number. */
    const instance = (occurrence: Time, id: string): CalendarEvent => {
      const override = byKey.get(occurrenceKey(occurrence, startTz));
      const range = override || ranges.length === 0 ? undefined : rangeAt(utcMillis(occurrence, startTz));
      let out: CalendarEvent;
      if (range) {
        // Moved as that override moved its own occurrence (wall-clock difference: a meeting
        // moved from 10:00 to 11:00 stays at 11:00 across a change of daylight saving time),
        // lasting as long as it does, with its details.
        const oStart = range.component.getFirstPropertyValue('dtstart');
        const start =
          oStart instanceof ICAL.Time ? plus(occurrence, oStart.subtractDate(range.rid)) : occurrence;
        out = {
          id,
          subscriptionId,
          ...details(range.component, vevent),
          start: render(start, startTz),
          allDay: start.isDate,
        };
        if (hasEnd(range.component))
          out.end = render(plus(start, new ICAL.Event(range.component).duration), startTz);
        else if (withEnd) out.end = render(plus(start, duration), startTz);
      } else if (override) {
        const oStart = override.getFirstPropertyValue('dtstart');
        const start = oStart instanceof ICAL.Time ? oStart : occurrence;
        const oTz = oStart instanceof ICAL.Time ? zoneOf(override, 'dtstart') : startTz;
        out = {
          id,
          subscriptionId,
          ...details(override, vevent),
          start: render(start, oTz),
          allDay: start.isDate,
        };
        if (hasEnd(override)) {
          out.end = render(new ICAL.Event(override).endDate, tzidOf(override, 'dtend') ?? oTz);
        } else if (withEnd) {
          out.end = render(plus(start, duration), oTz);
        }
      } else {
        out = {
          id,
          subscriptionId,
          ...details(vevent),
          start: render(occurrence, startTz),
          allDay: base.allDay,
        };
        const periodEnd = periodEnds.get(occurrence);
        if (periodEnd) out.end = render(periodEnd, startTz);
        else if (withEnd) out.end = render(plus(occurrence, duration), startTz);
      }
      out.recurringEventId = eventId;
      return out;
    };

    // A series may have more instances than are kept (a daily one over decades, an hourly one
    // over a year). Kept are those from RECENT_MS before now on, which calendar views ask for,
    // and the latest ones before that while there is room (the reference keeps the oldest, and
    // loses the current ones). Occurrences are numbered from DTSTART all the same, so an
    // instance keeps its id from one fetch to the next; those before RECENT_MS are only made
    // into instances once known to be kept.
    const excluded = exdatesOf(vevent, calendarZone);
    const recentFrom = now - RECENT_MS;
    const earlier: Array<[Time, string]> = [];
    const recent: CalendarEvent[] = [];
    const periodEnds = new Map<Time, Time>();
    const iterator = occurrencesOf(event, vevent, dtstart, periodEnds);
    /**
     * Whether the occurrence (its key, its instant) is an instance: not an EXDATE, nor cancelled
     * or declined by its override. Only instances are numbered.
     */
    const isInstance = (occurrence: Time, key: string, at: number): boolean => {
      if (excluded.has(key) || excluded.has(`D${dateString(occurrence)}`)) return false;
      const override = byKey.get(key) ?? rangeAt(at)?.component;
      return !override || !isSkipped(override, owner);
    };
    /**
     * The occurrences past the horizon that an override moved before it (next January's meeting
     * moved into December), from `first`, the first occurrence past it, numbered from `number`
     * on: the series is followed up to the latest of them (within the feed's iteration budget).
     */
    const movedBeforeHorizon = (first: Time, number: number): CalendarEvent[] => {
      const wanted = new Map<string, number>();
      for (const [key, override] of byKey) {
        const rid = override.getFirstPropertyValue('recurrence-id');
        const start = override.getFirstPropertyValue('dtstart');
        if (!(rid instanceof ICAL.Time) || !(start instanceof ICAL.Time) || isSkipped(override, owner))
          continue;
        const ridAt = utcMillis(rid, zoneOf(override, 'recurrence-id'));
        if (ridAt > horizon && utcMillis(start, zoneOf(override, 'dtstart')) <= horizon)
          wanted.set(key, ridAt);
      }
      if (wanted.size === 0) return [];
      const until = Math.max(...wanted.values());
      const found: CalendarEvent[] = [];
      for (
        let occurrence: Time | null = first;
        occurrence && wanted.size > 0 && iterations.left > 0;
        occurrence = iterator.next(), iterations.left--
      ) {
        const at = utcMillis(occurrence, startTz);
        if (at > until) break;
        const key = occurrenceKey(occurrence, startTz);
        if (!isInstance(occurrence, key, at)) continue;
        const id = `${eventId}-${number++}`;
        if (wanted.delete(key)) found.push(instance(occurrence, id));
      }
      return found;
    };
    let emitted = 0;
    /** Whether the series ended, or reached the horizon or its instances: not a limit. */
    let done = false;
    let last: Time | undefined;
    for (let i = 0; i < maxIterations && iterations.left > 0; i++, iterations.left--) {
      const occurrence = iterator.next();
      if (!occurrence) {
        done = true;
        break;
      }
      last = occurrence;
      const at = utcMillis(occurrence, startTz);
      if (at > horizon) {
        done = true;
        recent.push(...movedBeforeHorizon(occurrence, emitted));
        break;
      }
      if (!isInstance(occurrence, occurrenceKey(occurrence, startTz), at)) continue;
      const id = `${eventId}-${emitted++}`;
      if (at >= recentFrom) {
        recent.push(instance(occurrence, id));
        if (recent.length === maxInstances) {
          done = true;
          break;
        }
      } else {
        earlier.push([occurrence, id]);
        if (earlier.length >= 2 * maxInstances) earlier.splice(0, earlier.length - maxInstances);
      }
    }
    if (!done && last) cutShort(render(last, startTz), nameOf(vevent));
    const room = maxInstances - recent.length;
    const kept = room > 0 ? earlier.slice(-room).map(([occurrence, id]) => instance(occurrence, id)) : [];
    return [...kept, ...recent];
  }
}
