/**
 * The settings page's webhook routes: the same webhook service as /api/webhooks (the API and the
 * settings page manage the same set of webhooks), plus what only the page does: edit,
 * enable/disable (re-enabling resets failureCount), a delivery's attempts, redeliver and send a
 * test event. Like the TaskNotes plugin's settings, the page cannot choose an id or a secret.
 */
import { Type } from '@sinclair/typebox';
import { EVENT_NAMES } from '../../core/events/catalogue.js';
import type { DeliveryRecord } from '../../core/webhooks/types.js';
import {
  DeliveryDetailSchema,
  DeliveryRecordSchema,
  PublicWebhookSchema,
  WebhookSchema,
} from '../../core/webhooks/types.js';
import { WEBHOOK_MESSAGES as M } from '../../core/webhooks/validation.js';
import { defineRoute, MessageData, ok, type RouteSpec } from '../route.js';

const T = ['settings'];
const Params = Type.Object({ id: Type.String() });
const Events = Type.Array(Type.String(), { errorMessage: M.events });
const TransformFile = Type.String({ errorMessage: M.transformFile, description: "'' means raw payload" });

/** The log as the page shows it: payloads stay out (the page reloads it on every activity notice). */
const LoggedDelivery = Type.Omit(DeliveryRecordSchema, ['payload']);
const withoutPayload = ({ payload: _payload, ...rest }: DeliveryRecord) => rest;

export const settingsWebhookRoutes: RouteSpec[] = [
  defineRoute({
    method: 'GET',
    url: '/settings-api/webhooks',
    summary: 'Webhooks (without secrets) and the event names a webhook can subscribe to',
    tags: T,
    hidden: true,
    responses: {
      200: Type.Object({ webhooks: Type.Array(PublicWebhookSchema), eventNames: Type.Array(Type.String()) }),
    },
    handler: async (_input, ctx) => ok({ webhooks: ctx.services.webhooks.list(), eventNames: EVENT_NAMES }),
  }),
  defineRoute({
    method: 'POST',
    url: '/settings-api/webhooks',
    summary: 'Add a webhook; the response carries the generated secret, once',
    tags: T,
    hidden: true,
    body: Type.Object(
      {
        url: Type.String({ errorMessage: M.url }),
        events: Events,
        transformFile: Type.Optional(TransformFile),
        corsHeaders: Type.Optional(Type.Boolean({ errorMessage: M.corsHeaders })),
      },
      { additionalProperties: false, errorMessage: M.url },
    ),
    responses: { 201: Type.Object({ webhook: WebhookSchema }) },
    handler: async ({ body }, ctx) => {
      const { transformFile, ...rest } = body;
      const webhook = await ctx.services.webhooks.create({
        ...rest,
        ...(transformFile?.trim() ? { transformFile: transformFile.trim() } : {}),
      });
      return { status: 201, data: { webhook } };
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/settings-api/webhooks/deliveries',
    summary: 'The delivery log (last 100, oldest first), without payloads',
    tags: T,
    hidden: true,
    responses: { 200: Type.Object({ deliveries: Type.Array(LoggedDelivery), total: Type.Integer() }) },
    handler: async (_input, ctx) => {
      const deliveries = ctx.services.webhooks.deliveries().deliveries.map(withoutPayload);
      return ok({ deliveries, total: deliveries.length });
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/settings-api/webhooks/activity',
    summary: 'Server-Sent Events naming the webhooks whose deliveries changed (the live delivery log)',
    tags: T,
    hidden: true,
    raw: true,
    responses: { 200: { description: 'An endless text/event-stream' } as never },
    handler: async (_input, ctx) => ({
      kind: 'raw',
      status: 200,
      contentType: 'text/event-stream; charset=utf-8',
      headers: { 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' },
      body: ctx.streams.activity((listener) => ctx.services.webhooks.onActivity(listener)),
    }),
  }),
  defineRoute({
    method: 'GET',
    url: '/settings-api/webhooks/deliveries/:id',
    summary: 'One delivery with its payload and every attempt',
    tags: T,
    hidden: true,
    params: Params,
    responses: { 200: Type.Object({ delivery: DeliveryDetailSchema }) },
    handler: async ({ params }, ctx) => ok({ delivery: ctx.services.webhooks.delivery(params.id) }),
  }),
  defineRoute({
    method: 'POST',
    url: '/settings-api/webhooks/deliveries/:id/redeliver',
    summary: 'Send a delivery again (same id and payload)',
    tags: T,
    hidden: true,
    params: Params,
    responses: { 202: Type.Object({ delivery: LoggedDelivery }) },
    handler: async ({ params }, ctx) => ({
      status: 202,
      data: { delivery: withoutPayload(ctx.services.webhooks.redeliver(params.id)) },
    }),
  }),
  defineRoute({
    method: 'POST',
    url: '/settings-api/webhooks/:id/ping',
    summary: 'Send a webhook.ping test event',
    tags: T,
    hidden: true,
    params: Params,
    responses: { 202: Type.Object({ delivery: LoggedDelivery }) },
    handler: async ({ params }, ctx) => ({
      status: 202,
      data: { delivery: withoutPayload(ctx.services.webhooks.ping(params.id)) },
    }),
  }),
  defineRoute({
    method: 'PUT',
    url: '/settings-api/webhooks/:id',
    summary: 'Edit URL, events, transform file or custom headers',
    tags: T,
    hidden: true,
    params: Params,
    body: Type.Object(
      {
        url: Type.Optional(Type.String({ errorMessage: M.url })),
        events: Type.Optional(Events),
        transformFile: Type.Optional(
          Type.Union([TransformFile, Type.Null()], { errorMessage: M.transformFile }),
        ),
        corsHeaders: Type.Optional(Type.Boolean({ errorMessage: M.corsHeaders })),
      },
      { additionalProperties: false },
    ),
    responses: { 200: Type.Object({ webhook: PublicWebhookSchema }) },
    handler: async ({ params, body }, ctx) => {
      const transformFile =
        typeof body.transformFile === 'string' ? body.transformFile.trim() : body.transformFile;
      const webhook = await ctx.services.webhooks.update(params.id, { ...body, transformFile });
      return ok({ webhook });
    },
  }),
  defineRoute({
    method: 'PUT',
    url: '/settings-api/webhooks/:id/active',
    summary: 'Enable or disable; enabling a disabled webhook resets its failure count',
    tags: T,
    hidden: true,
    params: Params,
    body: Type.Object({ active: Type.Boolean({ errorMessage: M.active }) }, { additionalProperties: false }),
    responses: { 200: Type.Object({ webhook: PublicWebhookSchema }) },
    handler: async ({ params, body }, ctx) =>
      ok({ webhook: await ctx.services.webhooks.setActive(params.id, body.active) }),
  }),
  defineRoute({
    method: 'DELETE',
    url: '/settings-api/webhooks/:id',
    summary: 'Delete a webhook',
    tags: T,
    hidden: true,
    params: Params,
    responses: { 200: MessageData },
    handler: async ({ params }, ctx) => {
      ctx.services.webhooks.remove(params.id);
      return ok({ message: 'Webhook deleted' });
    },
  }),
];
