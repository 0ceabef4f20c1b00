/**
 * Webhook configuration as stored in the data dir (SPEC §4). The secret is stored here and
 * returned only by the create route.
 */
import { Type, type Static } from '@sinclair/typebox';

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
