/**
 * `GET /api/events`: every event as Server-Sent Events (docs/agents.md). Each message has `id:`
 * (the event journal's sequence number), `event:` (the event name) and `data:` (the envelope a
 * webhook receives). `Last-Event-ID` replays what the client missed from the persisted journal;
 * `?events=a,b` keeps only those events; a comment every 15 s keeps proxies from closing the
 * connection.
 */
import { Type } from '@sinclair/typebox';
import { invalid } from '../../core/errors.js';
import { JOURNAL_EVENT_NAMES } from '../../core/events/catalogue.js';
import { defineRoute, type RouteSpec } from '../route.js';

/** The names of `?events=`, or undefined for every event; 400 naming an unknown one. */
function eventNames(param: string | undefined): readonly string[] | undefined {
  if (param === undefined) return undefined;
  const names = param
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
  if (names.length === 0) throw invalid('Invalid query parameter "events": expected event names');
  const unknown = names.find((n) => !(JOURNAL_EVENT_NAMES as readonly string[]).includes(n));
  if (unknown !== undefined) {
    throw invalid(
      `Invalid query parameter "events": unknown event "${unknown}"; use: ${JOURNAL_EVENT_NAMES.join(', ')}`,
    );
  }
  return names;
}

/** Where a stream starts: after `Last-Event-ID`, else after the latest entry (no replay). */
function startAfter(header: string | string[] | undefined, latest: number): number {
  if (header === undefined) return latest;
  const text = (Array.isArray(header) ? header[0] : header)?.trim() ?? '';
  if (!/^\d{1,15}$/.test(text)) throw invalid('Last-Event-ID must be the id of an event (a whole number)');
  // An id above the latest one comes from another journal (a data dir made anew): start now.
  return Math.min(Number(text), latest);
}

export const eventRoutes: RouteSpec[] = [
  defineRoute({
    method: 'GET',
    url: '/api/events',
    summary: 'Event stream (Server-Sent Events)',
    description:
      'Every event as it happens: `id:` (increasing sequence number), `event:` (the event name) and `data:` ' +
      '(the JSON envelope a webhook receives: `{event, timestamp, vault, data}`). Send `Last-Event-ID` (as ' +
      'EventSource does on reconnecting) to receive every event after that id first, from the persisted ' +
      'journal (kept 7 days / 10,000 events by default; a comment says when older ones were dropped). A ' +
      'comment line every 15 s keeps proxies open. Events: ' +
      JOURNAL_EVENT_NAMES.join(', ') +
      '.',
    tags: ['events'],
    raw: true,
    querystring: Type.Object({
      events: Type.Optional(
        Type.String({ description: 'Comma-separated event names to receive (default: every event)' }),
      ),
    }),
    responses: {
      200: {
        description: 'An endless text/event-stream',
        content: {
          'text/event-stream': {
            schema: Type.String({
              description: 'id: 42\\nevent: task.created\\ndata: {"event":"task.created",…}\\n\\n',
            }),
          },
        },
      } as never,
    },
    handler: async ({ query, headers }, ctx) => {
      const names = eventNames(query.events);
      const after = startAfter(headers['last-event-id'], ctx.services.journal.latestSeq());
      return {
        kind: 'raw',
        status: 200,
        contentType: 'text/event-stream; charset=utf-8',
        // No caching, and no buffering by reverse proxies (nginx honours X-Accel-Buffering).
        headers: { 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' },
        body: ctx.streams.stream(after, names),
      };
    },
  }),
];
