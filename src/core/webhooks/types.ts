/**
 * Webhook shapes (docs/webhooks.md): a webhook as the API returns it (with the secret only when
 * it is created), the delivery record of the log and its attempts. The schemas also document
 * the webhook routes in OpenAPI.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { EventName } from '../events/catalogue.js';

export const SigningSchemeSchema = Type.Union([Type.Literal('taskdown'), Type.Literal('standard')], {
  description:
    '`taskdown` (default): X-Service-Signature, hex HMAC-SHA256 of the body keyed with the secret text. ' +
    '`standard`: Standard Webhooks headers webhook-id, webhook-timestamp, webhook-signature (whsec_ secrets).',
});
export type SigningScheme = Static<typeof SigningSchemeSchema>;

export const RetryScheduleSchema = Type.Array(Type.Number({ exclusiveMinimum: 0, maximum: 604_800 }), {
  maxItems: 20,
  description:
    'Seconds to wait before each retry; one attempt plus one per entry. Default [1, 2, 4]. ' +
    'Waits of 10 s or more vary by up to ±10 % so that retries of many deliveries spread out.',
});

export const WebhookSchema = Type.Object({
  id: Type.String(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  secret: Type.String({ description: 'Returned only when the webhook is created' }),
  active: Type.Boolean(),
  transformFile: Type.Optional(Type.String()),
  corsHeaders: Type.Boolean(),
  signing: SigningSchemeSchema,
  retrySchedule: RetryScheduleSchema,
  failureCount: Type.Integer({ minimum: 0, description: 'Deliveries that finally failed (all attempts)' }),
  successCount: Type.Integer({ minimum: 0 }),
  createdAt: Type.String(),
  lastTriggered: Type.Optional(Type.String({ description: 'Time of the last successful delivery' })),
  previousSecretExpiresAt: Type.Optional(
    Type.String({ description: 'Until then deliveries are signed with the previous secret too' }),
  ),
});
/** A webhook with its secret, as returned by registration. */
export type WebhookWithSecret = Static<typeof WebhookSchema>;

/** What list/get return: the secret leaves the server only in the create and rotate responses. */
export const PublicWebhookSchema = Type.Omit(WebhookSchema, ['secret']);
export type PublicWebhook = Static<typeof PublicWebhookSchema>;

/** A webhook as stored, with both secrets; times as epoch milliseconds. */
export interface Webhook {
  id: string;
  url: string;
  events: EventName[];
  secret: string;
  previousSecret?: string;
  previousSecretExpiresAt?: number;
  active: boolean;
  transformFile?: string;
  corsHeaders: boolean;
  signing: SigningScheme;
  retrySchedule: number[];
  failureCount: number;
  successCount: number;
  createdAt: number;
  lastTriggered?: number;
}

/** Registration input (POST /api/webhooks and the settings page's "Add webhook"). */
export interface WebhookInput {
  id?: string;
  url: string;
  events: string[];
  secret?: string;
  active?: boolean;
  transformFile?: string;
  corsHeaders?: boolean;
  signing?: SigningScheme;
  retrySchedule?: number[];
}

/** PATCH /api/webhooks/:id and the settings page's edit; `null`/'' clears the transform. */
export interface WebhookPatch {
  url?: string;
  events?: string[];
  active?: boolean;
  transformFile?: string | null;
  corsHeaders?: boolean;
  signing?: SigningScheme;
  retrySchedule?: number[];
}

export const DELIVERY_STATUSES = ['pending', 'success', 'failed'] as const;
export const DeliveryStatusSchema = Type.Union(DELIVERY_STATUSES.map((s) => Type.Literal(s)));
export type DeliveryStatus = Static<typeof DeliveryStatusSchema>;

export const DeliveryRecordSchema = Type.Object({
  id: Type.String({
    description: 'del_…; also X-Service-Delivery-ID or webhook-id, the same on every attempt and redelivery',
  }),
  webhookId: Type.String(),
  event: Type.String(),
  payload: Type.Unknown({ description: 'The body sent (the transformed one when a transform applied)' }),
  status: DeliveryStatusSchema,
  attempts: Type.Integer({ minimum: 0 }),
  lastAttempt: Type.Optional(Type.String()),
  nextAttempt: Type.Optional(Type.String({ description: 'When a pending delivery is tried next' })),
  responseStatus: Type.Optional(
    Type.Integer({ description: 'HTTP status of the last attempt that got one' }),
  ),
  error: Type.Optional(Type.String({ description: 'Last failure; cleared on success' })),
  transformError: Type.Optional(Type.String({ description: 'Why the transform fell back to the original' })),
  createdAt: Type.String(),
});
export type DeliveryRecord = Static<typeof DeliveryRecordSchema>;

export const AttemptSchema = Type.Object({
  attempt: Type.Integer({ minimum: 1 }),
  at: Type.String({ description: 'When the attempt started' }),
  durationMs: Type.Number(),
  outcome: Type.Union([Type.Literal('success'), Type.Literal('failed')]),
  responseStatus: Type.Optional(Type.Integer()),
  error: Type.Optional(Type.String()),
  responseBody: Type.Optional(Type.String({ description: 'The first 2 KB of the answer' })),
});
export type Attempt = Static<typeof AttemptSchema>;

export const DeliveryDetailSchema = Type.Intersect([
  DeliveryRecordSchema,
  Type.Object({ attemptLog: Type.Array(AttemptSchema, { description: 'Every attempt, oldest first' }) }),
]);
export type DeliveryDetail = Static<typeof DeliveryDetailSchema>;
