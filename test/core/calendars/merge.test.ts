/** Merging calendar events: provider tagging, window filter, stable sort, per-source counts. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mergeEvents } from '../../../src/core/calendars/merge.js';
import type { CalendarEvent } from '../../../src/core/calendars/types.js';

const ev = (id: string, subscriptionId: string, start: string, end?: string): CalendarEvent => ({
  id,
  subscriptionId,
  title: id,
  start,
  allDay: start.length === 10,
  ...(end ? { end } : {}),
});

describe('mergeEvents', () => {
  const providerEvents = [
    ev('g', 'google-primary', '2026-03-02T10:00:00.000Z'),
    ev('m', 'microsoft-cal', '2026-03-01T09:00:00.000Z'),
    ev('u', 'other-x', '2026-03-05'),
  ];
  const icsEvents = [
    ev('i1', 'ics_a', '2026-03-01', '2026-03-02'),
    ev('i2', 'ics_a', '2026-02-20T10:00:00.000Z', '2026-03-01T00:30:00.000Z'),
    ev('i3', 'ics_b', '2026-03-10T10:00:00.000Z'),
  ];

  it('tags providers by subscription prefix, sorts by start and counts per source', () => {
    const out = mergeEvents({ providerEvents, icsEvents });
    assert.deepEqual(
      out.events.map((e) => [e.id, e.provider]),
      [
        ['i2', 'ics'],
        ['i1', 'ics'],
        ['m', 'microsoft'],
        ['g', 'google'],
        ['u', 'unknown'],
        ['i3', 'ics'],
      ],
    );
    assert.equal(out.total, 6);
    assert.deepEqual(out.sources, { ics: 3, microsoft: 1, google: 1, unknown: 1 });
  });

  it('keeps events overlapping the window, comparing all-day dates as UTC midnight', () => {
    const out = mergeEvents({
      providerEvents,
      icsEvents,
      start: new Date('2026-03-01T00:00:00.000Z'),
      end: new Date('2026-03-05T00:00:00.000Z'),
    });
    assert.deepEqual(
      out.events.map((e) => e.id),
      ['i2', 'i1', 'm', 'g', 'u'],
    );
  });

  it('ignores an invalid bound and reports empty sources as {}', () => {
    const out = mergeEvents({ providerEvents, icsEvents, start: new Date('nope') });
    assert.equal(out.total, 6);
    assert.deepEqual(mergeEvents({ providerEvents: [], icsEvents: [] }), {
      events: [],
      total: 0,
      sources: {},
    });
  });
});
