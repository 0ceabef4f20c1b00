/**
 * Calendar configuration stored in the data dir (ICS subscriptions and the OAuth provider
 * credentials for Google and Microsoft) and the event shape every source produces.
 */
import { Type, type Static } from '@sinclair/typebox';

export const IcsSubscriptionSchema = Type.Object({
  /** `ics_<random base36><timestamp base36>`, as the reference generates. */
  id: Type.String(),
  name: Type.String(),
  /** `remote` feeds have `url`; `local` feeds have `filePath` (derived from those when absent). */
  type: Type.Optional(Type.Union([Type.Literal('remote'), Type.Literal('local')])),
  /** Remote feed (http, https or webcal). */
  url: Type.Optional(Type.String()),
  /** Vault-relative .ics file. */
  filePath: Type.Optional(Type.String()),
  color: Type.String({ default: '#6495ED' }),
  enabled: Type.Boolean({ default: true }),
  /** Minutes between refreshes; also how long a fetched copy counts as fresh. */
  refreshInterval: Type.Number({ default: 60, minimum: 1 }),
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
  /** Account shown in the status; read from the provider when absent. */
  email: Type.Optional(Type.String()),
  /** When the account was connected (ISO); reported as given. */
  connectedAt: Type.Optional(Type.String()),
});
export type ProviderConfig = Static<typeof ProviderConfigSchema>;

export type ProviderId = 'google' | 'microsoft';

/** One calendar event as the API returns it (reference ICSEvent). */
export const CalendarEventSchema = Type.Object({
  id: Type.String(),
  subscriptionId: Type.String(),
  title: Type.String(),
  /** `YYYY-MM-DD` for all-day events, UTC ISO otherwise. */
  start: Type.String(),
  /** All-day ends are exclusive (the next day). */
  end: Type.Optional(Type.String()),
  allDay: Type.Boolean(),
  description: Type.Optional(Type.String()),
  location: Type.Optional(Type.String()),
  url: Type.Optional(Type.String()),
  color: Type.Optional(Type.String()),
  recurringEventId: Type.Optional(Type.String()),
});
export type CalendarEvent = Static<typeof CalendarEventSchema>;

export interface ProviderCalendar {
  id: string;
  summary: string;
  description?: string;
  backgroundColor?: string;
  primary?: boolean;
}

export interface ProviderStatus {
  connected: true;
  email: string | null;
  connectedAt: string | null;
  calendars: ProviderCalendar[];
}

export interface EventWindow {
  start: Date;
  end: Date;
}

/** A calendar provider reached over its REST API with OAuth credentials from settings. */
export interface CalendarProviderClient {
  readonly id: ProviderId;
  readonly name: string;
  status(config: ProviderConfig): Promise<ProviderStatus>;
  events(config: ProviderConfig, window: EventWindow): Promise<CalendarEvent[]>;
}
