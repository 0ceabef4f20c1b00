/**
 * Webhook routes (docs/webhooks.md): registration, management, the delivery log, redelivery,
 * ping and secret rotation. Validation messages live in the schemas (`errorMessage`) and are the
 * webhook service's own, so the API and the settings page agree.
 */
import { Type } from '@sinclair/typebox';
import { EVENT_NAMES, type EventName } from '../../core/events/catalogue.js';
import {
  DeliveryDetailSchema,
  DeliveryRecordSchema,
  DELIVERY_STATUSES,
  type DeliveryStatus,
  PublicWebhookSchema,
  RetryScheduleSchema,
  SigningSchemeSchema,
  type SigningScheme,
  WebhookSchema,
} from '../../core/webhooks/types.js';
import { MAX_DELIVERY_PAGE, WEBHOOK_MESSAGES as M } from '../../core/webhooks/validation.js';
import { created, defineRoute, MessageData, ok, type RouteSpec } from '../route.js';

const T = ['webhooks'];

const EventNameSchema = Type.Unsafe<EventName>({ type: 'string', enum: EVENT_NAMES, errorMessage: M.events });
const WebhookParams = Type.Object({ id: Type.String({ description: 'Webhook id' }) });
const DeliveryParams = Type.Object({ id: Type.String({ description: 'Delivery id (del_…)' }) });
// An enum, not the union of literals: Ajv reports a union's failure against its first branch.
const Signing = Type.Unsafe<SigningScheme>({
  type: 'string',
  enum: ['taskdown', 'standard'],
  description: SigningSchemeSchema.description,
  errorMessage: M.signing,
});
// The message is on the items too: Ajv reports a bad wait against the item's schema.
const RetrySchedule = Type.Unsafe<number[]>({
  ...RetryScheduleSchema,
  items: { ...RetryScheduleSchema.items, errorMessage: M.retrySchedule },
  errorMessage: M.retrySchedule,
});
const DeliveryData = Type.Object({ delivery: DeliveryRecordSchema });

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
        Type.String({
          errorMessage: M.id,
          description: `Generated (wh_…) when omitted or empty; ${M.idForm}`,
        }),
      ),
      secret: Type.Optional(
        Type.String({
          errorMessage: M.secret,
          description:
            'Generated when omitted: 64 hex characters, or whsec_ + base64 with signing "standard"',
        }),
      ),
      active: Type.Optional(Type.Boolean({ errorMessage: M.active, description: 'Default true' })),
      transformFile: Type.Optional(
        Type.String({ errorMessage: M.transformFile, description: 'Vault-relative .json template' }),
      ),
      corsHeaders: Type.Optional(
        Type.Boolean({
          errorMessage: M.corsHeaders,
          description: 'Send the signature and event headers (default true)',
        }),
      ),
      signing: Type.Optional(Signing),
      retrySchedule: Type.Optional(RetrySchedule),
    }),
  ],
  { errorMessage: M.url },
);

const PatchBody = Type.Object(
  {
    url: Type.Optional(Type.String({ errorMessage: M.url })),
    events: Type.Optional(Type.Array(EventNameSchema, { minItems: 1, errorMessage: M.events })),
    active: Type.Optional(
      Type.Boolean({ errorMessage: M.active, description: 'Switching it on resets failureCount' }),
    ),
    transformFile: Type.Optional(
      Type.Union([Type.String(), Type.Null()], {
        errorMessage: M.transformFile,
        description: 'null or an empty string removes the transform',
      }),
    ),
    corsHeaders: Type.Optional(Type.Boolean({ errorMessage: M.corsHeaders })),
    signing: Type.Optional(Signing),
    retrySchedule: Type.Optional(RetrySchedule),
  },
  {
    additionalProperties: false,
    errorMessage:
      'Only url, events, active, transformFile, corsHeaders, signing and retrySchedule can be changed',
  },
);

export const webhookRoutes: RouteSpec[] = [
  defineRoute({
    method: 'POST',
    url: '/api/webhooks',
    summary: 'Register a webhook',
    description:
      'Registers (or, for an existing id, replaces) a webhook. The response is the only place the secret ' +
      'is returned. URLs that reach link-local, metadata, multicast or this server’s own address are refused ' +
      '(and loopback and private ones when the server listens on a non-loopback address).',
    tags: T,
    body: CreateBody,
    responses: { 201: Type.Object({ webhook: WebhookSchema, message: Type.String() }) },
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
    summary: 'The delivery log: the last 100 deliveries, oldest first',
    description:
      'Persisted in the data dir (kept for 7 days or 10,000 deliveries by default). Filter by `webhookId` and ' +
      '`status`; page back with `before` (a delivery id: only older deliveries) while `hasMore` is true.',
    tags: T,
    querystring: Type.Object({
      webhookId: Type.Optional(Type.String()),
      status: Type.Optional(
        Type.Unsafe<DeliveryStatus>({
          type: 'string',
          enum: DELIVERY_STATUSES,
          errorMessage: M.deliveryStatus,
        }),
      ),
      limit: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: MAX_DELIVERY_PAGE,
          errorMessage: M.deliveryLimit,
          description: 'Default 100',
        }),
      ),
      before: Type.Optional(Type.String({ description: 'A delivery id' })),
    }),
    responses: {
      200: Type.Object({
        deliveries: Type.Array(DeliveryRecordSchema),
        total: Type.Integer({ description: 'Number of deliveries in this answer' }),
        hasMore: Type.Boolean({ description: 'Older deliveries match too' }),
      }),
    },
    handler: async ({ query }, ctx) => {
      const page = ctx.services.webhooks.deliveries(query);
      return ok({ deliveries: page.deliveries, total: page.deliveries.length, hasMore: page.hasMore });
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/webhooks/deliveries/:id',
    summary: 'One delivery with every attempt',
    description:
      'Each attempt: when, how long, the HTTP status, the error, and the first 2 KB of the answer.',
    tags: T,
    params: DeliveryParams,
    responses: { 200: Type.Object({ delivery: DeliveryDetailSchema }) },
    handler: async ({ params }, ctx) => ok({ delivery: ctx.services.webhooks.delivery(params.id) }),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/webhooks/deliveries/:id/redeliver',
    summary: 'Send a delivery again',
    description:
      'Sends the same payload with the same delivery id now, followed by the webhook’s retry schedule if it ' +
      'fails. The webhook must exist and be active.',
    tags: T,
    params: DeliveryParams,
    responses: { 202: DeliveryData },
    handler: async ({ params }, ctx) => ({
      status: 202,
      data: { delivery: ctx.services.webhooks.redeliver(params.id) },
    }),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/webhooks/:id',
    summary: 'One webhook (secret omitted)',
    tags: T,
    params: WebhookParams,
    responses: { 200: Type.Object({ webhook: PublicWebhookSchema }) },
    handler: async ({ params }, ctx) => ok({ webhook: ctx.services.webhooks.get(params.id) }),
  }),
  defineRoute({
    method: 'PATCH',
    url: '/api/webhooks/:id',
    summary: 'Change a webhook',
    description:
      'Changes any of url, events, active, transformFile, corsHeaders, signing, retrySchedule; the secret and ' +
      'the counters stay (switching active on resets failureCount).',
    tags: T,
    params: WebhookParams,
    body: PatchBody,
    responses: { 200: Type.Object({ webhook: PublicWebhookSchema }) },
    handler: async ({ params, body }, ctx) =>
      ok({ webhook: await ctx.services.webhooks.update(params.id, body) }),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/webhooks/:id/ping',
    summary: 'Send a test event',
    description:
      'Sends a `webhook.ping` event ({event, timestamp, vault, data:{webhookId}}), signed as usual, whatever ' +
      'the webhook subscribes to. The webhook must be active.',
    tags: T,
    params: WebhookParams,
    responses: { 202: DeliveryData },
    handler: async ({ params }, ctx) => ({
      status: 202,
      data: { delivery: ctx.services.webhooks.ping(params.id) },
    }),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/webhooks/:id/rotate-secret',
    summary: 'Replace the secret, keeping the old one valid for a while',
    description:
      'Generates a new secret of the webhook’s scheme. Until previousSecretExpiresAt (graceSeconds, default ' +
      '86400) deliveries carry signatures of both: two space-separated v1 values in webhook-signature ' +
      '(standard), or X-Service-Signature-Previous beside X-Service-Signature (taskdown).',
    tags: T,
    params: WebhookParams,
    body: Type.Object(
      {
        graceSeconds: Type.Optional(
          Type.Integer({
            minimum: 0,
            maximum: 604_800,
            errorMessage: M.graceSeconds,
            description: 'Default 86400',
          }),
        ),
      },
      { additionalProperties: false, errorMessage: M.graceSeconds },
    ),
    responses: { 200: Type.Object({ secret: Type.String(), previousSecretExpiresAt: Type.String() }) },
    handler: async ({ params, body }, ctx) =>
      ok(ctx.services.webhooks.rotateSecret(params.id, body.graceSeconds)),
  }),
  defineRoute({
    method: 'DELETE',
    url: '/api/webhooks/:id',
    summary: 'Delete a webhook',
    description: 'Its pending deliveries end as failed and attempts in flight are cancelled.',
    tags: T,
    params: WebhookParams,
    responses: { 200: MessageData },
    handler: async ({ params }, ctx) => {
      ctx.services.webhooks.remove(params.id);
      return ok({ message: 'Webhook deleted successfully' });
    },
  }),
];
