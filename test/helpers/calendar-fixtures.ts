/**
 * A local HTTP server for calendar tests: ICS feeds by path plus Google- and Microsoft-shaped
 * JSON APIs behind an OAuth token endpoint, recording every request.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Handler = (req: RecordedRequest) => { status?: number; type?: string; body: string | object };

export interface FixtureServer {
  url: string;
  requests: RecordedRequest[];
  /** Routes by exact pathname (query ignored). */
  routes: Map<string, Handler>;
  close(): Promise<void>;
}

export async function startFixtureServer(): Promise<FixtureServer> {
  const requests: RecordedRequest[] = [];
  const routes = new Map<string, Handler>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      const record: RecordedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body,
      };
      requests.push(record);
      const handler = routes.get((req.url ?? '').split('?')[0] ?? '');
      if (!handler) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('nope');
        return;
      }
      const out = handler(record);
      const text = typeof out.body === 'string' ? out.body : JSON.stringify(out.body);
      const type = out.type ?? (typeof out.body === 'string' ? 'text/calendar' : 'application/json');
      res.writeHead(out.status ?? 200, { 'content-type': type }).end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    routes,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** `YYYYMMDDTHHMMSSZ` for an epoch ms. */
export const icsUtc = (ms: number): string =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

export function icsCalendar(events: string[]): string {
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Taskdown tests//EN',
    ...events,
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}

export function icsEvent(fields: Record<string, string>): string {
  return ['BEGIN:VEVENT', ...Object.entries(fields).map(([k, v]) => `${k}:${v}`), 'END:VEVENT'].join('\r\n');
}

/**
 * A feed whose one rule ical.js never finishes expanding (no 31 February: it looks for one in a
 * call that does not return), to test the time limit of a feed's read and its interruption.
 */
export const ENDLESS_RULE_ICS = icsCalendar([
  icsEvent({
    UID: 'never',
    SUMMARY: 'No 31 February',
    DTSTART: '20260101T090000Z',
    RRULE: 'FREQ=DAILY;BYMONTH=2;BYMONTHDAY=31',
  }),
]);
