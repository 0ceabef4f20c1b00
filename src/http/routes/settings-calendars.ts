/**
 * The settings page's ICS subscription routes over the calendar service (the list that
 * GET /api/calendars/subscriptions reports). The service validates input and owns the messages,
 * so bodies pass through as objects here.
 */
import { Type } from '@sinclair/typebox';
import { defineRoute, MessageData, ok, type RouteSpec } from '../route.js';
import { SubscriptionSchema as Subscription } from './calendars.js';

const T = ['settings'];
const BASE = '/settings-api/calendars/subscriptions';
const Params = Type.Object({ id: Type.String() });
const Body = Type.Record(Type.String(), Type.Unknown(), {
  errorMessage: 'Subscription must be a JSON object',
});

export const settingsCalendarRoutes: RouteSpec[] = [
  defineRoute({
    method: 'GET',
    url: BASE,
    summary: 'ICS subscriptions with their fetch state',
    tags: T,
    hidden: true,
    responses: { 200: Type.Object({ subscriptions: Type.Array(Subscription) }) },
    handler: async (_input, ctx) => ok({ subscriptions: await ctx.services.calendars.listSubscriptions() }),
  }),
  defineRoute({
    method: 'POST',
    url: BASE,
    summary: 'Add an ICS subscription (a remote feed or a vault .ics file)',
    tags: T,
    hidden: true,
    body: Body,
    responses: { 201: Type.Object({ subscription: Subscription }) },
    handler: async ({ body }, ctx) => ({
      status: 201,
      data: { subscription: await ctx.services.calendars.addSubscription(body) },
    }),
  }),
  defineRoute({
    method: 'PUT',
    url: `${BASE}/:id`,
    summary: 'Change an ICS subscription',
    tags: T,
    hidden: true,
    params: Params,
    body: Body,
    responses: { 200: Type.Object({ subscription: Subscription }) },
    handler: async ({ params, body }, ctx) =>
      ok({ subscription: await ctx.services.calendars.updateSubscription(params.id, body) }),
  }),
  defineRoute({
    method: 'DELETE',
    url: `${BASE}/:id`,
    summary: 'Remove an ICS subscription',
    tags: T,
    hidden: true,
    params: Params,
    responses: { 200: MessageData },
    handler: async ({ params }, ctx) => {
      await ctx.services.calendars.removeSubscription(params.id);
      return ok({ message: 'Subscription removed' });
    },
  }),
  defineRoute({
    method: 'POST',
    url: `${BASE}/:id/refresh`,
    summary: 'Fetch a subscription now; a failed fetch is reported in lastError',
    tags: T,
    hidden: true,
    params: Params,
    responses: { 200: Type.Object({ subscription: Subscription }) },
    handler: async ({ params }, ctx) => ok({ subscription: await ctx.services.calendars.refresh(params.id) }),
  }),
];
