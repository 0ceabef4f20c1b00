/**
 * Webhook routes (docs/api-decisions.md). Validation messages live in the schemas
 * (`errorMessage`) and are the registry's own, so the API and the settings page agree.
 */
import { Type } from '@sinclair/typebox';
import { EVENT_NAMES, type EventName } from '../../core/events/catalogue.js';
import { WEBHOOK_MESSAGES as M } from '../../core/webhooks/registry.js';
import { DeliveryRecordSchema, PublicWebhookSchema, WebhookConfigSchema } from '../../core/webhooks/types.js';
import { created, defineRoute, MessageData, ok, type RouteSpec } from '../route.js';

const T = ['webhooks'];

const EventNameSchema = Type.Unsafe<EventName>({ type: 'string', enum: EVENT_NAMES, errorMessage: M.events });

/**
 * Two parts checked in order, so a body with a bad url and no events reports the url first, as
 * the reference does (a single object schema would report missing `events` before the url type).
 * A body that is not an object (array, null, string) has no url, as in the reference.
 */
const CreateBody = Type.Intersect(
  [
    Type.Object(
      {
        url: Type.String({
          errorMessage: M.url,
          description: 'Absolute http(s) URL that receives the POSTs',
        }),
      },
      { errorMessage: M.url },
    ),
    Type.Object({
      events: Type.Array(EventNameSchema, { minItems: 1, errorMessage: M.events }),
      id: Type.Optional(
        Type.String({ errorMessage: M.id, description: 'Generated (wh_…) when omitted or empty' }),
      ),
      secret: Type.Optional(
        Type.String({ errorMessage: M.secret, description: 'HMAC key; 32 random bytes as hex when omitted' }),
      ),
      active: Type.Optional(Type.Boolean({ errorMessage: M.active, description: 'Default true' })),
      transformFile: Type.Optional(
        Type.String({ errorMessage: M.transformFile, description: 'Vault-relative .json template' }),
      ),
      corsHeaders: Type.Optional(
        Type.Boolean({
          errorMessage: M.corsHeaders,
          description: 'Send the X-Service-* headers (default true)',
        }),
      ),
    }),
  ],
  { errorMessage: M.url },
);

export const webhookRoutes: RouteSpec[] = [
  defineRoute({
    method: 'POST',
    url: '/api/webhooks',
    summary: 'Register a webhook',
    description:
      'Registers (or, for an existing id, replaces) a webhook. The response is the only place the secret ' +
      'is returned.',
    tags: T,
    body: CreateBody,
    responses: { 201: Type.Object({ webhook: WebhookConfigSchema, message: Type.String() }) },
    handler: async ({ body }, ctx) => {
      const webhook = await ctx.services.webhooks.create(body);
      return created({
        webhook,
        message: 'Webhook registered successfully. Save the secret for signature validation.',
      });
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/webhooks',
    summary: 'List webhooks (secrets omitted)',
    tags: T,
    responses: { 200: Type.Object({ webhooks: Type.Array(PublicWebhookSchema), total: Type.Integer() }) },
    handler: async (_input, ctx) => {
      const webhooks = ctx.services.webhooks.list();
      return ok({ webhooks, total: webhooks.length });
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/webhooks/deliveries',
    summary: 'The last 100 deliveries, oldest first',
    description: 'Kept in memory only; lost on restart.',
    tags: T,
    responses: { 200: Type.Object({ deliveries: Type.Array(DeliveryRecordSchema), total: Type.Integer() }) },
    handler: async (_input, ctx) => {
      const deliveries = ctx.services.webhooks.deliveries();
      return ok({ deliveries, total: deliveries.length });
    },
  }),
  defineRoute({
    method: 'DELETE',
    url: '/api/webhooks/:id',
    summary: 'Delete a webhook',
    tags: T,
    params: Type.Object({ id: Type.String({ description: 'Webhook id' }) }),
    responses: { 200: MessageData },
    handler: async ({ params }, ctx) => {
      await ctx.services.webhooks.remove(params.id);
      return ok({ message: 'Webhook deleted successfully' });
    },
  }),
];
