/**
 * Merging events from every source for GET /api/calendars/events (the TaskNotes plugin
 * §6.3): tag each with its provider, drop those outside the window, sort by start (stable), and
 * count per provider.
 */
import type { CalendarEvent } from './types.js';

export type EventProvider = 'google' | 'microsoft' | 'unknown' | 'ics';
export type MergedEvent = CalendarEvent & { provider: EventProvider };

export interface MergedEvents {
  events: MergedEvent[];
  total: number;
  sources: Partial<Record<EventProvider, number>>;
}

/** All-day strings compare as UTC midnight; an unparsable value never filters. */
const instant = (value: string): number => new Date(value).getTime();

function providerOf(subscriptionId: string): Exclude<EventProvider, 'ics'> {
  if (subscriptionId.startsWith('google-')) return 'google';
  if (subscriptionId.startsWith('microsoft-')) return 'microsoft';
  return 'unknown';
}

export interface MergeInput {
  providerEvents: CalendarEvent[];
  icsEvents: CalendarEvent[];
  /** Window bounds; undefined or invalid means "no bound on that side". */
  start?: Date;
  end?: Date;
}

export function mergeEvents({ providerEvents, icsEvents, start, end }: MergeInput): MergedEvents {
  const all: MergedEvent[] = [
    ...providerEvents.map((e) => ({ ...e, provider: providerOf(e.subscriptionId) })),
    ...icsEvents.map((e) => ({ ...e, provider: 'ics' as const })),
  ];
  const from = start?.getTime() ?? NaN;
  const to = end?.getTime() ?? NaN;
  const inWindow = all.filter((e) => {
    const s = instant(e.start);
    const f = e.end !== undefined ? instant(e.end) : s;
    // NaN comparisons are false, so an invalid bound or date filters nothing (as the reference).
    return !(f < from) && !(s > to);
  });
  // Array.prototype.sort is stable; unparsable starts keep their relative place at the end.
  const key = (e: MergedEvent): number => {
    const t = instant(e.start);
    return Number.isNaN(t) ? Infinity : t;
  };
  inWindow.sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return ka === kb ? 0 : ka - kb;
  });
  const sources: Partial<Record<EventProvider, number>> = {};
  for (const e of inWindow) sources[e.provider] = (sources[e.provider] ?? 0) + 1;
  return { events: inWindow, total: inWindow.length, sources };
}
