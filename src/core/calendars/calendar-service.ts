/**
 * The calendars capability: ICS subscriptions plus the Google and Microsoft providers, behind the
 * five calendar routes and the settings page. Providers are "connected" when settings hold OAuth
 * client credentials and a refresh token for them.
 */
import path from 'node:path';
import type { Clock } from '../clock.js';
import { DomainError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { HttpClient } from '../net/http-client.js';
import type { SettingsStore } from '../state/settings.js';
import type { VaultPathPolicy } from '../vault/paths.js';
import { GoogleCalendarClient } from './google.js';
import { IcsSubscriptions, type SubscriptionStatus } from './ics-subscriptions.js';
import { mergeEvents, type MergedEvents } from './merge.js';
import { MicrosoftCalendarClient } from './microsoft.js';
import { SubscriptionCache } from './subscription-cache.js';
import type {
  CalendarEvent,
  CalendarProviderClient,
  ProviderConfig,
  ProviderId,
  ProviderStatus,
} from './types.js';

export interface CalendarServiceDeps {
  settings: SettingsStore;
  clock: Clock;
  log: Logger;
  vault: VaultPathPolicy;
  dataDir: string;
  /** The shared outbound HTTP client. */
  http: HttpClient;
  /** Per-request timeout for feeds and provider APIs. */
  timeoutMs?: number;
}

export interface ProviderSummary {
  id: ProviderId;
  name: string;
  connected: boolean;
  email?: string | null;
  calendarCount?: number;
}

export interface CalendarsOverview {
  providers: ProviderSummary[];
  subscriptions: { total: number; enabled: number };
}

export interface EventsQuery {
  start?: string;
  end?: string;
}

/**
 * What a window bound of `events` may be, for the route's and the MCP tool's documentation: one
 * rule, said once. An unusable bound changes the answer without failing it, so it must be said.
 */
export const EVENT_BOUND_RULE =
  'any Date-parsable value, e.g. 2026-05-01 or 2026-05-01T09:00:00Z; a value that is not is ignored, as if none were given';

/** Provider window when the request gives none: a month back, a year ahead (the ICS horizon). */
const DEFAULT_PAST_MS = 30 * 86_400_000;
const DEFAULT_FUTURE_MS = 365 * 86_400_000;

/** The answer of a calendar request that the server's stop cut short (see interrupt). */
export const CALENDAR_STOPPING = 'Taskdown is stopping: the calendar request was given up';

const parseBound = (value: string | undefined): Date | undefined =>
  value === undefined ? undefined : new Date(value);
const valid = (d: Date | undefined): d is Date => d !== undefined && !Number.isNaN(d.getTime());

export class CalendarService {
  private readonly ics: IcsSubscriptions;
  private readonly providers: CalendarProviderClient[];
  /** Aborted by interrupt: ends the provider requests under way. */
  private readonly stopping = new AbortController();

  constructor(private readonly deps: CalendarServiceDeps) {
    const timeoutMs = deps.timeoutMs ?? 15_000;
    this.ics = new IcsSubscriptions({
      settings: deps.settings,
      cache: new SubscriptionCache(path.join(deps.dataDir, 'calendar-cache')),
      clock: deps.clock,
      log: deps.log,
      vault: deps.vault,
      http: deps.http,
      fetchTimeoutMs: timeoutMs,
    });
    this.providers = [
      new GoogleCalendarClient(deps.clock, deps.http, timeoutMs, this.stopping.signal),
      new MicrosoftCalendarClient(deps.clock, deps.http, timeoutMs, this.stopping.signal),
    ];
  }

  start(): Promise<void> {
    return this.ics.start();
  }

  /**
   * Gives up the feed fetches and reads and the provider requests under way, so that the requests
   * waiting on them answer at once: the first step of the server's stop, before it lets the
   * requests in flight finish.
   */
  interrupt(): void {
    this.stopping.abort();
    this.ics.interrupt();
  }

  stop(): Promise<void> {
    this.interrupt();
    return this.ics.stop();
  }

  /** A request that interrupt cut short fails as a whole: its partial answer would mislead. */
  private assertNotStopping(): void {
    if (this.stopping.signal.aborted) throw new DomainError('UNAVAILABLE', CALENDAR_STOPPING);
  }

  private configOf(id: ProviderId): ProviderConfig | undefined {
    const config = this.deps.settings.get().calendarProviders[id];
    return config && config.clientId && config.refreshToken ? config : undefined;
  }

  async overview(): Promise<CalendarsOverview> {
    const providers = await Promise.all(
      this.providers.map(async (p): Promise<ProviderSummary> => {
        const config = this.configOf(p.id);
        if (!config) return { id: p.id, name: p.name, connected: false };
        try {
          const status = await p.status(config);
          return {
            id: p.id,
            name: p.name,
            connected: true,
            email: status.email,
            calendarCount: status.calendars.length,
          };
        } catch (err) {
          this.deps.log.warn(
            { provider: p.id, error: (err as Error).message },
            'calendar provider unavailable',
          );
          return { id: p.id, name: p.name, connected: true };
        }
      }),
    );
    const subs = this.deps.settings.get().icsSubscriptions;
    return {
      providers,
      subscriptions: { total: subs.length, enabled: subs.filter((s) => s.enabled).length },
    };
  }

  /** `{connected:false}` without credentials; the provider's account and calendars otherwise. */
  async provider(id: ProviderId): Promise<{ connected: false } | ProviderStatus> {
    const client = this.providers.find((p) => p.id === id) as CalendarProviderClient;
    const config = this.configOf(id);
    if (!config) return { connected: false };
    try {
      return await client.status(config);
    } catch (err) {
      this.assertNotStopping();
      throw new DomainError('UNAVAILABLE', (err as Error).message);
    }
  }

  async events(query: EventsQuery): Promise<MergedEvents> {
    const start = parseBound(query.start);
    const end = parseBound(query.end);
    const now = this.deps.clock.now();
    const window = {
      start: valid(start) ? start : new Date(now - DEFAULT_PAST_MS),
      end: valid(end) ? end : new Date(now + DEFAULT_FUTURE_MS),
    };
    const providerLists = await Promise.all(
      this.providers.map(async (p): Promise<CalendarEvent[]> => {
        const config = this.configOf(p.id);
        if (!config) return [];
        try {
          return await p.events(config, window);
        } catch (err) {
          // One unreachable provider must not hide the other sources.
          if (this.stopping.signal.aborted) return [];
          this.deps.log.warn(
            { provider: p.id, error: (err as Error).message },
            'calendar provider events failed',
          );
          return [];
        }
      }),
    );
    const icsEvents = await this.ics.events();
    this.assertNotStopping();
    return mergeEvents({ providerEvents: providerLists.flat(), icsEvents, start, end });
  }

  listSubscriptions(): Promise<SubscriptionStatus[]> {
    return this.ics.list();
  }

  addSubscription(input: unknown): Promise<SubscriptionStatus> {
    return this.ics.add(input);
  }

  updateSubscription(id: string, patch: unknown): Promise<SubscriptionStatus> {
    return this.ics.update(id, patch);
  }

  removeSubscription(id: string): Promise<void> {
    return this.ics.remove(id);
  }

  async refresh(id: string): Promise<SubscriptionStatus> {
    const status = await this.ics.refresh(id);
    this.assertNotStopping();
    return status;
  }
}
