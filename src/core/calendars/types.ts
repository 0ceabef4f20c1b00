/**
 * Calendar configuration stored in the data dir: ICS subscriptions and the OAuth provider
 * credentials for Google and Microsoft.
 */
import { Type, type Static } from '@sinclair/typebox';

export const IcsSubscriptionSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  /** Remote feed (http, https or webcal). Exactly one of url and filePath is set. */
  url: Type.Optional(Type.String()),
  /** Vault-relative .ics file. */
  filePath: Type.Optional(Type.String()),
  color: Type.String({ default: '#6495ED' }),
  enabled: Type.Boolean({ default: true }),
  /** Minutes between refreshes. */
  refreshInterval: Type.Number({ default: 60, minimum: 1 }),
  lastFetched: Type.Optional(Type.String()),
  lastError: Type.Optional(Type.String()),
});
export type IcsSubscription = Static<typeof IcsSubscriptionSchema>;

export const ProviderConfigSchema = Type.Object({
  clientId: Type.String(),
  clientSecret: Type.String(),
  refreshToken: Type.String(),
  /** Override of the provider's REST base URL (tests point it at a local server). */
  apiBaseUrl: Type.Optional(Type.String()),
  /** Override of the provider's OAuth token endpoint. */
  tokenUrl: Type.Optional(Type.String()),
  /** Calendars to read; the primary calendar when empty. */
  calendarIds: Type.Optional(Type.Array(Type.String())),
});
export type ProviderConfig = Static<typeof ProviderConfigSchema>;
