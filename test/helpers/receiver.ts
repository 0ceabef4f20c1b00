/**
 * A real webhook receiver on loopback (node:http). Records every request with its raw body
 * bytes, so tests verify signatures over exactly what was sent.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import type { TestServer } from './server-process.js';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  body: any;
  at: number;
}

export type Responder = (
  req: ReceivedRequest,
  index: number,
) => number | { status: number; delayMs?: number };

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** Changes how the next requests are answered (default: 200). */
  respond(responder: Responder): void;
  /** Resolves when at least `count` requests have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

export async function startReceiver(responder: Responder = () => 200, port = 0): Promise<Receiver> {
  let respond = responder;
  const requests: ReceivedRequest[] = [];
  const waiters: Array<() => void> = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let body: unknown;
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        body = raw.toString('utf8');
      }
      const record: ReceivedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        raw,
        body,
        at: Date.now(),
      };
      requests.push(record);
      for (const wake of waiters.splice(0)) wake();
      const answer = respond(record, requests.length - 1);
      const { status, delayMs = 0 } = typeof answer === 'number' ? { status: answer } : answer;
      setTimeout(() => {
        res.writeHead(status, { 'content-type': 'text/plain' });
        res.end('ok');
      }, delayMs).unref();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    requests,
    respond: (r) => {
      respond = r;
    },
    // Generous for the same reason as the helper `waitFor`: it resolves as soon as the count is met.
    waitFor(count, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`receiver got ${requests.length} of ${count} requests in time`)),
          timeoutMs,
        );
        const check = (): void => {
          if (requests.length >= count) {
            clearTimeout(timer);
            resolve(requests);
          } else waiters.push(check);
        };
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A loopback port nobody listens on, for a receiver that is down at first and comes up on it
 * later. It is taken from below the system's ephemeral range: every other test listens on port 0,
 * so none of them (test files run in parallel processes) can be handed this port while it is
 * closed. A port found free by listening on port 0 and closing again once was: another test's
 * receiver got it, the webhook meant for this one reached that receiver, and the port was in use
 * when this test's receiver came up.
 */
export async function closedPort(): Promise<number> {
  const range = await readFile('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').catch(() => '');
  // Elsewhere (Windows, macOS) the ephemeral range starts at 49152.
  const ephemeralFrom = Number(range.trim().split(/\s+/)[0]) || 49_152;
  const from = 10_000;
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = from + Math.floor(Math.random() * Math.max(1_000, ephemeralFrom - from));
    if (await isFree(port)) return port;
  }
  throw new Error(`no free loopback port between ${from} and ${ephemeralFrom}`);
}

function isFree(port: number): Promise<boolean> {
  const probe = createNetServer();
  return new Promise((resolve) => {
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** A receiver with a webhook for `events` registered on `server` (through its API) to send there. */
export async function subscribedReceiver(
  server: { request: TestServer['request'] },
  events: readonly string[],
): Promise<Receiver> {
  const receiver = await startReceiver();
  const hook = await server.request('POST', '/api/webhooks', { url: receiver.url, events });
  assert.equal(hook.status, 201, hook.text);
  return receiver;
}
