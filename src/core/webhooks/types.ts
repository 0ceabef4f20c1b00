/**
 * Webhook shapes (docs/api-decisions.md): the configuration as stored in the data dir, the view that every
 * listing returns (no secret), and the delivery record of the in-memory log. The schemas also
 * document the webhook routes in OpenAPI.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { EventName } from '../events/catalogue.js';

export const WebhookConfigSchema = Type.Object({
  id: Type.String(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  secret: Type.String(),
  active: Type.Boolean(),
  transformFile: Type.Optional(Type.String()),
  corsHeaders: Type.Boolean(),
  failureCount: Type.Integer({ minimum: 0 }),
  successCount: Type.Integer({ minimum: 0 }),
  createdAt: Type.String(),
  lastTriggered: Type.Optional(Type.String()),
});
export type WebhookConfig = Static<typeof WebhookConfigSchema>;

/** What list/get return: the secret leaves the server only in the create response. */
export const PublicWebhookSchema = Type.Omit(WebhookConfigSchema, ['secret']);
export type PublicWebhook = Static<typeof PublicWebhookSchema>;

/** Registration input (POST /api/webhooks and the settings page's "Add webhook"). */
export interface WebhookInput {
  id?: string;
  url: string;
  events: string[];
  secret?: string;
  active?: boolean;
  transformFile?: string;
  corsHeaders?: boolean;
}

/** Fields the settings page may change on an existing webhook; `null`/'' clears the transform. */
export interface WebhookPatch {
  url?: string;
  events?: string[];
  transformFile?: string | null;
  corsHeaders?: boolean;
}

export const DeliveryStatusSchema = Type.Union([
  Type.Literal('pending'),
  Type.Literal('success'),
  Type.Literal('failed'),
]);
export type DeliveryStatus = Static<typeof DeliveryStatusSchema>;

export const DeliveryRecordSchema = Type.Object({
  id: Type.String({ description: 'del_…; also the X-Service-Delivery-ID header, the same on every retry' }),
  webhookId: Type.String(),
  event: Type.String(),
  payload: Type.Unknown({ description: 'The body sent (the transformed one when a transform applied)' }),
  status: DeliveryStatusSchema,
  attempts: Type.Integer({ minimum: 0 }),
  lastAttempt: Type.Optional(Type.String()),
  responseStatus: Type.Optional(
    Type.Integer({ description: 'HTTP status of the last attempt that got one' }),
  ),
  error: Type.Optional(Type.String({ description: 'Last failure; cleared on success' })),
  transformError: Type.Optional(Type.String({ description: 'Why the transform fell back to the original' })),
  createdAt: Type.String(),
});
export type DeliveryRecord = Static<typeof DeliveryRecordSchema>;

/** The body every delivery starts from (docs/api-decisions.md). */
export interface EventEnvelope {
  event: EventName;
  timestamp: string;
  vault: { name: string; path: string };
  data: unknown;
}
