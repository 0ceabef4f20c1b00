/**
 * Webhook tools (Taskdown's; the TaskNotes plugin has none): list, register, delete and the
 * delivery log, over the webhook registry the webhook routes use, with its validation messages.
 */
import { z } from 'zod';
import { EVENT_NAMES } from '../../core/events/catalogue.js';
import { defineTool } from '../tool.js';

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
    name: 'tasknotes_create_webhook',
    description:
      'Register a webhook that receives signed POSTs for the chosen events; the answer is the only place its secret is shown',
    input: z.object({
      url: z.string().describe('Absolute http(s) URL that receives the POSTs'),
      events: z.array(z.enum(EVENT_NAMES)).describe(`Events to send: ${EVENT_NAMES.join(', ')}`),
      id: z.string().optional().describe('Webhook id (generated when omitted; an existing id is replaced)'),
      secret: z.string().optional().describe('HMAC key (32 random bytes as hex when omitted)'),
      active: z.boolean().optional().describe('Default true'),
      transformFile: z.string().optional().describe('Vault-relative .json template for the body'),
      corsHeaders: z.boolean().optional().describe('Send the X-Service-* headers (default true)'),
    }),
    run: async (ctx, args) => ({ webhook: await ctx.services.webhooks.create(args) }),
  }),
  defineTool({
    name: 'tasknotes_delete_webhook',
    description: 'Delete a webhook',
    input: z.object({ id: z.string().describe('Webhook id') }),
    annotations: { destructiveHint: true },
    run: async (ctx, { id }) => {
      await ctx.services.webhooks.remove(id);
      return { deleted: true, id };
    },
  }),
  defineTool({
    name: 'tasknotes_get_webhook_deliveries',
    description: 'The most recent webhook deliveries, oldest first, with status, attempts and errors',
    input: z.object({}),
    annotations: { readOnlyHint: true },
    run: async (ctx) => {
      const { deliveries, hasMore } = ctx.services.webhooks.deliveries();
      return { deliveries, total: deliveries.length, hasMore };
    },
  }),
];
