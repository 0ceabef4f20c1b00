/**
 * Google Calendar client (Calendar API v3): the calendar list for the status route and expanded
 * events (`singleEvents=true`) of the configured calendars for the events route. Event ids keep
 * Google's ids; `subscriptionId` is `google-<calendarId>` as in the reference.
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

const API = 'https://www.googleapis.com/calendar/v3';
const TOKEN_URL = 'https://oauth2.googleapis.com/token';

interface GoogleCalendarEntry {
  id: string;
  summary?: string;
  summaryOverride?: string;
  description?: string;
  backgroundColor?: string;
  primary?: boolean;
}
interface GoogleTime {
  date?: string;
  dateTime?: string;
}
interface GoogleEvent {
  id: string;
  status?: string;
  summary?: string;
  description?: string;
  location?: string;
  htmlLink?: string;
  start?: GoogleTime;
  end?: GoogleTime;
  recurringEventId?: string;
}
interface Page<T> {
  items?: T[];
  nextPageToken?: string;
}

/** Google follows pages with a token; bounded so a misbehaving server cannot loop forever. */
const MAX_PAGES = 50;

const renderTime = (t: GoogleTime | undefined): string | undefined => {
  if (t?.date) return t.date;
  if (t?.dateTime) {
    const d = new Date(t.dateTime);
    return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
  }
  return undefined;
};

export class GoogleCalendarClient implements CalendarProviderClient {
  readonly id = 'google' as const;
  readonly name = 'Google Calendar';
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
      timeoutMs,
      ...(stopping ? { stopping } : {}),
    });
  }

  private http(config: ProviderConfig) {
    return providerHttp(this.name, config, this.tokens, this.client, this.timeoutMs, this.stopping);
  }

  private async calendarList(config: ProviderConfig): Promise<GoogleCalendarEntry[]> {
    const http = this.http(config);
    const out: GoogleCalendarEntry[] = [];
    let pageToken: string | undefined;
    for (let i = 0; i < MAX_PAGES; i++) {
      const query = pageToken ? `?pageToken=${encodeURIComponent(pageToken)}` : '';
      const page = await http.getJson<Page<GoogleCalendarEntry>>(
        joinUrl(config.apiBaseUrl ?? API, `/users/me/calendarList${query}`),
      );
      out.push(...(page.items ?? []));
      pageToken = page.nextPageToken;
      if (!pageToken) break;
    }
    return out;
  }

  async status(config: ProviderConfig): Promise<ProviderStatus> {
    const list = await this.calendarList(config);
    const calendars: ProviderCalendar[] = list.map((c) => {
      const cal: ProviderCalendar = { id: c.id, summary: c.summaryOverride ?? c.summary ?? c.id };
      if (c.description) cal.description = c.description;
      if (c.backgroundColor) cal.backgroundColor = c.backgroundColor;
      if (c.primary) cal.primary = true;
      return cal;
    });
    // A Google account's primary calendar id is the account's address.
    const email = config.email ?? list.find((c) => c.primary)?.id ?? null;
    return { connected: true, email, connectedAt: config.connectedAt ?? null, calendars };
  }

  async events(config: ProviderConfig, window: EventWindow): Promise<CalendarEvent[]> {
    const ids = config.calendarIds && config.calendarIds.length > 0 ? config.calendarIds : ['primary'];
    const lists = await Promise.all(ids.map((id) => this.calendarEvents(config, id, window)));
    return lists.flat();
  }

  private async calendarEvents(
    config: ProviderConfig,
    calendarId: string,
    window: EventWindow,
  ): Promise<CalendarEvent[]> {
    const http = this.http(config);
    const out: CalendarEvent[] = [];
    let pageToken: string | undefined;
    for (let i = 0; i < MAX_PAGES; i++) {
      const query = new URLSearchParams({
        timeMin: window.start.toISOString(),
        timeMax: window.end.toISOString(),
        singleEvents: 'true',
        orderBy: 'startTime',
        maxResults: '2500',
      });
      if (pageToken) query.set('pageToken', pageToken);
      const page = await http.getJson<Page<GoogleEvent>>(
        joinUrl(config.apiBaseUrl ?? API, `/calendars/${encodeURIComponent(calendarId)}/events?${query}`),
      );
      for (const e of page.items ?? []) {
        const start = renderTime(e.start);
        if (!start || e.status === 'cancelled') continue;
        const event: CalendarEvent = {
          id: e.id,
          subscriptionId: `google-${calendarId}`,
          title: e.summary || 'Untitled Event',
          start,
          allDay: Boolean(e.start?.date),
        };
        const end = renderTime(e.end);
        if (end) event.end = end;
        if (e.description) event.description = e.description;
        if (e.location) event.location = e.location;
        if (e.htmlLink) event.url = e.htmlLink;
        if (e.recurringEventId) event.recurringEventId = e.recurringEventId;
        out.push(event);
      }
      pageToken = page.nextPageToken;
      if (!pageToken) break;
    }
    return out;
  }
}
