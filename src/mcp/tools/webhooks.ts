/**
 * Webhook tools (Taskdown's; the TaskNotes plugin has none): one per webhook route, calling the
 * webhook service the route calls. Argument schemas give types only; the service checks values
 * (URL, event names, retry schedule, grace period, delivery filter) and its messages are the
 * API's, so a tool error says what the route's 400 says.
 */
import { z } from 'zod';
import { EVENT_NAMES } from '../../core/events/catalogue.js';
import type { DeliveryStatus, SigningScheme, WebhookPatch } from '../../core/webhooks/types.js';
import { DELIVERY_STATUSES } from '../../core/webhooks/types.js';
import { defineTool } from '../tool.js';

const WEBHOOK_ID = z.string().describe('Webhook id');
const DELIVERY_ID = z.string().describe('Delivery id (del_…)');
const EVENTS = z.array(z.string()).describe(`Events to send, one or more of: ${EVENT_NAMES.join(', ')}`);
const SIGNING = z
  .string()
  .describe(
    '"taskdown" (X-Service-Signature, hex HMAC-SHA256) or "standard" (Standard Webhooks headers, whsec_ secret)',
  );
const RETRY_SCHEDULE = z
  .array(z.number())
  .describe(
    'Waits in seconds between attempts after a failure (at most 20, each 1..604800; default [1, 2, 4])',
  );

export const webhookTools = [
  defineTool({
    name: 'tasknotes_list_webhooks',
    description: 'List the registered webhooks (secrets omitted)',
    input: z.object({}),
    annotations: { readOnlyHint: true },
    run: async (ctx) => {
      const webhooks = ctx.services.webhooks.list();
      return { webhooks, total: webhooks.length };
    },
  }),
  defineTool({
    name: 'tasknotes_get_webhook',
    description: 'One webhook with its settings and counters (secret omitted)',
    input: z.object({ id: WEBHOOK_ID }),
    annotations: { readOnlyHint: true },
    run: async (ctx, { id }) => ({ webhook: ctx.services.webhooks.get(id) }),
  }),
  defineTool({
    name: 'tasknotes_create_webhook',
    description:
      'Register a webhook that receives signed POSTs for the chosen events; the answer is the only place its secret is shown',
    input: z.object({
      url: z.string().describe('Absolute http(s) URL that receives the POSTs'),
      events: EVENTS,
      id: z.string().optional().describe('Webhook id (generated when omitted; an existing id is replaced)'),
      secret: z
        .string()
        .optional()
        .describe(
          'Signing key (generated when omitted: 64 hex characters, or whsec_… with signing "standard")',
        ),
      active: z.boolean().optional().describe('Default true'),
      transformFile: z.string().optional().describe('Vault-relative .json template for the body'),
      corsHeaders: z.boolean().optional().describe('Send the signature and event headers (default true)'),
      signing: SIGNING.optional(),
      retrySchedule: RETRY_SCHEDULE.optional(),
    }),
    annotations: { destructiveHint: false },
    run: async (ctx, { signing, ...args }) => ({
      webhook: await ctx.services.webhooks.create({
        ...args,
        ...(signing === undefined ? {} : { signing: signing as SigningScheme }),
      }),
    }),
  }),
  defineTool({
    name: 'tasknotes_update_webhook',
    description:
      'Change a webhook: any of url, events, active, transformFile, corsHeaders, signing, retrySchedule; the secret and counters stay (switching active on resets failureCount)',
    input: z.object({
      id: WEBHOOK_ID,
      url: z.string().optional().describe('Absolute http(s) URL that receives the POSTs'),
      events: EVENTS.optional(),
      active: z
        .boolean()
        .optional()
        .describe('false pauses deliveries; true resumes and resets failureCount'),
      transformFile: z
        .string()
        .nullable()
        .optional()
        .describe('Vault-relative .json template; null or "" removes the transform'),
      corsHeaders: z.boolean().optional().describe('Send the signature and event headers'),
      signing: SIGNING.optional(),
      retrySchedule: RETRY_SCHEDULE.optional(),
    }),
    annotations: { idempotentHint: true },
    run: async (ctx, { id, ...patch }) => {
      const changes = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
      return { webhook: await ctx.services.webhooks.update(id, changes as WebhookPatch) };
    },
  }),
  defineTool({
    name: 'tasknotes_delete_webhook',
    description: 'Delete a webhook; its pending deliveries end as failed',
    input: z.object({ id: WEBHOOK_ID }),
    annotations: { destructiveHint: true, idempotentHint: true },
    run: async (ctx, { id }) => {
      ctx.services.webhooks.remove(id);
      return { deleted: true, id };
    },
  }),
  defineTool({
    name: 'tasknotes_ping_webhook',
    description:
      'Send a signed webhook.ping event to an active webhook, whatever events it subscribes to; answers the queued delivery',
    input: z.object({ id: WEBHOOK_ID }),
    annotations: { destructiveHint: false, openWorldHint: true },
    run: async (ctx, { id }) => ({ delivery: ctx.services.webhooks.ping(id) }),
  }),
  defineTool({
    name: 'tasknotes_rotate_webhook_secret',
    description:
      'Replace the secret of a webhook with a new one; deliveries carry signatures of both until previousSecretExpiresAt. The answer is the only place the new secret is shown',
    input: z.object({
      id: WEBHOOK_ID,
      graceSeconds: z
        .number()
        .optional()
        .describe('How long the old secret stays valid, 0..604800 seconds (default 86400)'),
    }),
    run: async (ctx, { id, graceSeconds }) => ctx.services.webhooks.rotateSecret(id, graceSeconds),
  }),
  defineTool({
    name: 'tasknotes_get_webhook_deliveries',
    description:
      'The last 100 (or limit) webhook deliveries, oldest first, with status, attempts and errors; filter by webhook and status, page back with before',
    input: z.object({
      webhookId: z.string().optional().describe('Only deliveries of this webhook'),
      status: z
        .string()
        .optional()
        .describe(`Only deliveries with this status: ${DELIVERY_STATUSES.join(', ')}`),
      limit: z.number().optional().describe('How many, 1..1000 (default 100)'),
      before: z.string().optional().describe('A delivery id: only deliveries older than it'),
    }),
    annotations: { readOnlyHint: true },
    run: async (ctx, { status, ...filter }) => {
      const defined = Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined));
      const { deliveries, hasMore } = ctx.services.webhooks.deliveries({
        ...defined,
        ...(status === undefined ? {} : { status: status as DeliveryStatus }),
      });
      return { deliveries, total: deliveries.length, hasMore };
    },
  }),
  defineTool({
    name: 'tasknotes_get_webhook_delivery',
    description:
      'One webhook delivery with every attempt: when, how long, HTTP status, error, start of the answer',
    input: z.object({ id: DELIVERY_ID }),
    annotations: { readOnlyHint: true },
    run: async (ctx, { id }) => ({ delivery: ctx.services.webhooks.delivery(id) }),
  }),
  defineTool({
    name: 'tasknotes_redeliver_webhook_delivery',
    description:
      'Send a delivery again now (same id and payload), followed by the webhook’s retry schedule if it fails; the webhook must be active',
    input: z.object({ id: DELIVERY_ID }),
    annotations: { destructiveHint: false, openWorldHint: true },
    run: async (ctx, { id }) => ({ delivery: ctx.services.webhooks.redeliver(id) }),
  }),
];
