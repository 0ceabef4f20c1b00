/** Calendar routes (as in the TaskNotes plugin). */
import { Type } from '@sinclair/typebox';
import { EVENT_BOUND_RULE } from '../../core/calendars/calendar-service.js';
import { CalendarEventSchema } from '../../core/calendars/types.js';
import { defineRoute, ok, type RouteSpec } from '../route.js';

const T = ['calendars'];

const ProviderCalendar = Type.Object({
  id: Type.String(),
  summary: Type.String(),
  description: Type.Optional(Type.String()),
  backgroundColor: Type.Optional(Type.String()),
  primary: Type.Optional(Type.Boolean()),
});

const ProviderStatus = Type.Union([
  Type.Object({ connected: Type.Literal(false) }),
  Type.Object({
    connected: Type.Literal(true),
    email: Type.Union([Type.String(), Type.Null()]),
    connectedAt: Type.Union([Type.String(), Type.Null()]),
    calendars: Type.Array(ProviderCalendar),
  }),
]);

/** An ICS subscription with its fetch state (also what the settings page's routes return). */
export const SubscriptionSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  type: Type.Union([Type.Literal('remote'), Type.Literal('local')]),
  url: Type.Optional(Type.String()),
  filePath: Type.Optional(Type.String()),
  color: Type.String(),
  enabled: Type.Boolean(),
  refreshInterval: Type.Number({ description: 'Minutes' }),
  lastFetched: Type.Union([Type.String(), Type.Null()]),
  lastError: Type.Union([Type.String(), Type.Null()]),
  lastWarning: Type.Union([Type.String(), Type.Null()], {
    description:
      'What the copy of the feed leaves out, until a fetch reads it all: events that could not be read (an invalid date, an unknown recurrence rule; how many and why the first), and recurring events with more occurrences than are expanded (50,000 per series, 500,000 per feed; how many, and where the first stopped)',
  }),
});

const Provider = Type.Union([
  Type.Literal('google'),
  Type.Literal('microsoft'),
  Type.Literal('unknown'),
  Type.Literal('ics'),
]);

const providerRoute = (id: 'google' | 'microsoft', name: string): RouteSpec =>
  defineRoute({
    method: 'GET',
    url: `/api/calendars/${id}`,
    summary: `${name} status`,
    description: `{connected:false} until OAuth client credentials and a refresh token for ${name} are in the settings; then the account and its calendars. 503 when the provider cannot be reached.`,
    tags: T,
    responses: { 200: ProviderStatus },
    handler: async (_input, ctx) => ok(await ctx.services.calendars.provider(id)),
  });

export const calendarRoutes: RouteSpec[] = [
  defineRoute({
    method: 'GET',
    url: '/api/calendars',
    summary: 'Calendar sources overview',
    tags: T,
    responses: {
      200: Type.Object({
        providers: Type.Array(
          Type.Object({
            id: Type.String(),
            name: Type.String(),
            connected: Type.Boolean(),
            email: Type.Optional(Type.Union([Type.String(), Type.Null()])),
            calendarCount: Type.Optional(Type.Integer()),
          }),
        ),
        subscriptions: Type.Object({ total: Type.Integer(), enabled: Type.Integer() }),
      }),
    },
    handler: async (_input, ctx) => ok(await ctx.services.calendars.overview()),
  }),
  providerRoute('google', 'Google Calendar'),
  providerRoute('microsoft', 'Microsoft Calendar'),
  defineRoute({
    method: 'GET',
    url: '/api/calendars/subscriptions',
    summary: 'ICS subscriptions',
    tags: T,
    responses: { 200: Type.Object({ subscriptions: Type.Array(SubscriptionSchema) }) },
    handler: async (_input, ctx) => ok({ subscriptions: await ctx.services.calendars.listSubscriptions() }),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/calendars/events',
    summary: 'Merged calendar events in a window',
    description:
      'Events of the connected providers and the enabled ICS subscriptions, sorted by start. An event is left out when it ends before `start` or starts after `end`; an unparsable bound is ignored. A feed that cannot be fetched contributes nothing and reports `lastError` in /api/calendars/subscriptions.',
    tags: T,
    querystring: Type.Object({
      start: Type.Optional(Type.String({ description: `Window start: ${EVENT_BOUND_RULE}` })),
      end: Type.Optional(Type.String({ description: `Window end: ${EVENT_BOUND_RULE}` })),
    }),
    responses: {
      200: Type.Object({
        events: Type.Array(Type.Intersect([CalendarEventSchema, Type.Object({ provider: Provider })])),
        total: Type.Integer(),
        sources: Type.Record(Type.String(), Type.Integer(), {
          description: 'Event count per provider with at least one event',
        }),
      }),
    },
    handler: async ({ query }, ctx) => ok(await ctx.services.calendars.events(query)),
  }),
];
