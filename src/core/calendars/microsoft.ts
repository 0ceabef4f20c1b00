/**
 * Microsoft calendar client (Microsoft Graph v1.0): the signed-in user and calendars for the
 * status route, and `calendarView` (recurrences expanded by Graph, times in UTC) for the events
 * route. `subscriptionId` is `microsoft-<calendarId>` as in the reference.
 */
import type { Clock } from '../clock.js';
import type { HttpClient } from '../net/http-client.js';
import { OAuthTokenSource } from './oauth.js';
import { joinUrl, providerHttp } from './provider-http.js';
import type {
  CalendarEvent,
  CalendarProviderClient,
  EventWindow,
  ProviderCalendar,
  ProviderConfig,
  ProviderStatus,
} from './types.js';

const API = 'https://graph.microsoft.com/v1.0';
const TOKEN_URL = 'https://login.microsoftonline.com/common/oauth2/v2.0/token';
const SCOPE = 'offline_access User.Read Calendars.Read';

interface GraphCalendar {
  id: string;
  name?: string;
  hexColor?: string;
  isDefaultCalendar?: boolean;
}
interface GraphTime {
  dateTime?: string;
  timeZone?: string;
}
interface GraphEvent {
  id: string;
  subject?: string;
  bodyPreview?: string;
  isAllDay?: boolean;
  isCancelled?: boolean;
  webLink?: string;
  seriesMasterId?: string;
  location?: { displayName?: string };
  start?: GraphTime;
  end?: GraphTime;
}
interface Page<T> {
  value?: T[];
  '@odata.nextLink'?: string;
}

const MAX_PAGES = 50;

/** Graph returns `2026-01-15T14:00:00.0000000` in the zone asked for (UTC here). */
function renderTime(t: GraphTime | undefined, allDay: boolean): string | undefined {
  if (!t?.dateTime) return undefined;
  if (allDay) return t.dateTime.slice(0, 10);
  const utc = /[zZ]|[+-]\d\d:\d\d$/.test(t.dateTime) ? t.dateTime : `${t.dateTime}Z`;
  const d = new Date(utc);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

export class MicrosoftCalendarClient implements CalendarProviderClient {
  readonly id = 'microsoft' as const;
  readonly name = 'Microsoft Calendar';
  private readonly tokens: OAuthTokenSource;

  constructor(
    clock: Clock,
    private readonly client: HttpClient,
    private readonly timeoutMs = 15_000,
    /** Ends the requests under way (the server's stop). */
    private readonly stopping?: AbortSignal,
  ) {
    this.tokens = new OAuthTokenSource(clock, client, {
      defaultTokenUrl: TOKEN_URL,
      scope: SCOPE,
      timeoutMs,
      ...(stopping ? { stopping } : {}),
    });
  }

  private http(config: ProviderConfig) {
    return providerHttp(this.name, config, this.tokens, this.client, this.timeoutMs, this.stopping);
  }

  private async all<T>(config: ProviderConfig, first: string): Promise<T[]> {
    const http = this.http(config);
    const out: T[] = [];
    let url: string | undefined = first;
    for (let i = 0; url && i < MAX_PAGES; i++) {
      const page: Page<T> = await http.getJson<Page<T>>(url, { Prefer: 'outlook.timezone="UTC"' });
      out.push(...(page.value ?? []));
      url = page['@odata.nextLink'];
    }
    return out;
  }

  async status(config: ProviderConfig): Promise<ProviderStatus> {
    const base = config.apiBaseUrl ?? API;
    const [me, list] = await Promise.all([
      config.email
        ? Promise.resolve({ mail: config.email })
        : this.http(config).getJson<{ mail?: string | null; userPrincipalName?: string }>(
            joinUrl(base, '/me'),
          ),
      this.all<GraphCalendar>(config, joinUrl(base, '/me/calendars')),
    ]);
    const calendars: ProviderCalendar[] = list.map((c) => {
      const cal: ProviderCalendar = { id: c.id, summary: c.name ?? c.id };
      if (c.hexColor) cal.backgroundColor = c.hexColor;
      if (c.isDefaultCalendar) cal.primary = true;
      return cal;
    });
    const email = me.mail || ('userPrincipalName' in me ? me.userPrincipalName : undefined) || null;
    return { connected: true, email, connectedAt: config.connectedAt ?? null, calendars };
  }

  async events(config: ProviderConfig, window: EventWindow): Promise<CalendarEvent[]> {
    const ids = config.calendarIds && config.calendarIds.length > 0 ? config.calendarIds : [null];
    const lists = await Promise.all(ids.map((id) => this.calendarEvents(config, id, window)));
    return lists.flat();
  }

  /** `calendarId` null reads the default calendar. */
  private async calendarEvents(
    config: ProviderConfig,
    calendarId: string | null,
    window: EventWindow,
  ): Promise<CalendarEvent[]> {
    const query = new URLSearchParams({
      startDateTime: window.start.toISOString(),
      endDateTime: window.end.toISOString(),
      $top: '500',
    });
    const path = calendarId
      ? `/me/calendars/${encodeURIComponent(calendarId)}/calendarView`
      : '/me/calendarView';
    const items = await this.all<GraphEvent>(config, joinUrl(config.apiBaseUrl ?? API, `${path}?${query}`));
    const subscriptionId = `microsoft-${calendarId ?? 'default'}`;
    const out: CalendarEvent[] = [];
    for (const e of items) {
      const allDay = e.isAllDay === true;
      const start = renderTime(e.start, allDay);
      if (!start || e.isCancelled) continue;
      const event: CalendarEvent = {
        id: e.id,
        subscriptionId,
        title: e.subject || 'Untitled Event',
        start,
        allDay,
      };
      const end = renderTime(e.end, allDay);
      if (end) event.end = end;
      if (e.bodyPreview) event.description = e.bodyPreview;
      if (e.location?.displayName) event.location = e.location.displayName;
      if (e.webLink) event.url = e.webLink;
      if (e.seriesMasterId) event.recurringEventId = e.seriesMasterId;
      out.push(event);
    }
    return out;
  }
}
