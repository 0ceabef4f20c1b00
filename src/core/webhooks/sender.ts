/**
 * Sends delivery attempts: one HTTP POST each, through the shared HTTP client (undici), on a
 * keep-alive pool of the webhook's own, whose connections go only to addresses the guard allows
 * (checked on the resolved address when each connection is made). Pools being per webhook, a
 * receiver that hangs ties up only its own connections: other webhooks are not delayed.
 *
 * The per-attempt timeout runs on the injected Clock and covers the whole exchange, answer
 * included: one sweep timer checks every attempt in flight (a timer per attempt was a measurable
 * share of the cost at thousands of deliveries a second).
 */
import type { Clock, TimerHandle } from '../clock.js';
import type { Dispatcher, HttpClient } from '../net/http-client.js';
import type { AddressGuard } from '../net/address-guard.js';

/** The start of an answer kept in the delivery log (the rest is read and dropped). */
export const RESPONSE_EXCERPT_BYTES = 2048;
/** An answer longer than this is not read to its end; its connection is closed instead. */
const MAX_DRAIN_BYTES = 256 * 1024;

export interface AttemptResult {
  status: number;
  /** The first 2 KB of the answer, as text. */
  responseBody: string;
}

export interface Sender {
  /**
   * POSTs `body` (UTF-8) to `url` for webhook `webhookId`. Rejects on network errors, refused
   * addresses and timeouts, with the reason as the message.
   */
  post(webhookId: string, url: string, headers: Record<string, string>, body: string): Promise<AttemptResult>;
  /** Aborts the webhook's attempts in flight and closes its connections. */
  reset(webhookId: string): void;
  /** Aborts everything and closes every pool. */
  close(): Promise<void>;
}

export interface SenderOptions {
  http: HttpClient;
  guard: AddressGuard;
  clock: Clock;
  timeoutMs: number;
  /** Connections per webhook (the engine sends at most this many attempts of one webhook at once). */
  connections: number;
}

/** One attempt in flight: its deadline, and how to abort it once it has started. */
interface Live {
  deadline: number;
  controller: Dispatcher.DispatchController | undefined;
  reason: Error | undefined;
  /** Its place in its lane's `live` list; -1 when it is not in it (not started, or ended). */
  index: number;
}

interface Lane {
  pool: Dispatcher;
  /**
   * The attempts in flight, in no order: an attempt ends by moving the last one into its place.
   * Not a Set: with an add and a delete for every attempt, each attempt's objects (the Live, and
   * through its controller undici's request, our handler and the answer) survived young
   * collections into the old generation, which then filled with them: per 40,000 attempts in a
   * loop of 16 in flight, 8 full collections and 23,000–31,000 page faults, against none and
   * 4,000–4,700 with this list, as many as the same loop on undici alone (Node 20.20 and 24.21;
   * docs/performance.md, "Webhooks").
   */
  live: Live[];
}

interface Target {
  origin: string;
  path: string;
}

export function createSender({ http, guard, clock, timeoutMs, connections }: SenderOptions): Sender {
  const lanes = new Map<string, Lane>();
  const abort = (live: Live, reason: Error): void => {
    live.reason ??= reason;
    live.controller?.abort(live.reason);
  };
  const sweepMs = Math.max(1, Math.min(1000, Math.ceil(timeoutMs / 10)));
  let sweeper: TimerHandle | undefined;
  const sweep = (): void => {
    sweeper = undefined;
    const now = clock.now();
    let waiting = false;
    for (const lane of lanes.values()) {
      // A copy: an abort may end its attempt at once, which reorders the list.
      for (const live of [...lane.live]) {
        if (now >= live.deadline) abort(live, new Error(`Request timed out after ${timeoutMs} ms`));
        else waiting = true;
      }
    }
    if (waiting) sweeper = clock.setTimer(sweepMs, sweep);
  };
  const check = (host: string, port: number): Promise<string> => guard.vet(host, port);
  const laneOf = (webhookId: string): Lane => {
    let lane = lanes.get(webhookId);
    if (!lane) lanes.set(webhookId, (lane = { pool: http.pool({ connections, check }), live: [] }));
    return lane;
  };
  const ended = (lane: Lane, live: Live): void => {
    if (live.index < 0) return;
    const last = lane.live.pop() as Live;
    if (last !== live) {
      lane.live[live.index] = last;
      last.index = live.index;
    }
    live.index = -1;
  };
  // Receivers are few and fixed; parsing their URL on every attempt showed in profiles.
  const targets = new Map<string, Target>();
  const targetOf = (url: string): Target => {
    let target = targets.get(url);
    if (!target) {
      const parsed = new URL(url);
      target = { origin: parsed.origin, path: parsed.pathname + parsed.search };
      if (targets.size >= 256) targets.clear();
      targets.set(url, target);
    }
    return target;
  };
  const stop = (lane: Lane, reason: string): Promise<void> => {
    for (const live of [...lane.live]) abort(live, new Error(reason));
    return lane.pool.destroy().catch(() => {});
  };

  return {
    post(webhookId, url, headers, body) {
      return new Promise<AttemptResult>((resolve, reject) => {
        const lane = laneOf(webhookId);
        const live: Live = {
          deadline: clock.now() + timeoutMs,
          controller: undefined,
          reason: undefined,
          index: -1,
        };
        const chunks: Buffer[] = [];
        let status = 0;
        let kept = 0;
        let read = 0;
        const finish = (err: Error | undefined): void => {
          ended(lane, live);
          // An answer too long to read to its end was cut off on purpose: that is still an answer.
          if (err && !(status > 0 && read > MAX_DRAIN_BYTES)) reject(new Error(describe(err)));
          else resolve({ status, responseBody: excerpt(chunks) });
        };
        live.index = lane.live.push(live) - 1;
        sweeper ??= clock.setTimer(sweepMs, sweep);
        let target: Target;
        try {
          target = targetOf(url);
        } catch (err) {
          finish(err as Error); // a URL edited by hand into something unparsable
          return;
        }
        // undici's handler interface: no promise, stream or AbortController per attempt, which
        // were a measurable share of the cost at thousands of deliveries a second.
        lane.pool.dispatch(
          { origin: target.origin, path: target.path, method: 'POST', headers, body },
          {
            onRequestStart(controller) {
              live.controller = controller;
              if (live.reason) controller.abort(live.reason);
            },
            onResponseStart(_controller, statusCode) {
              status = statusCode;
            },
            onResponseData(controller, chunk) {
              if (kept < RESPONSE_EXCERPT_BYTES) {
                chunks.push(chunk);
                kept += chunk.length;
              }
              read += chunk.length;
              if (read > MAX_DRAIN_BYTES) controller.abort(new Error('Answer too long'));
            },
            onResponseEnd() {
              finish(undefined);
            },
            onResponseError(_controller, err) {
              finish(err);
            },
          },
        );
      });
    },
    reset(webhookId) {
      const lane = lanes.get(webhookId);
      if (!lane) return;
      lanes.delete(webhookId);
      void stop(lane, 'Delivery stopped');
    },
    async close() {
      sweeper?.cancel();
      sweeper = undefined;
      const all = [...lanes.values()];
      lanes.clear();
      await Promise.all(all.map((lane) => stop(lane, 'Delivery stopped')));
    },
  };
}

/** The start of an answer as text, cut at the limit without splitting a character. */
function excerpt(chunks: Buffer[]): string {
  if (chunks.length === 0) return '';
  const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
  return bytes
    .subarray(0, RESPONSE_EXCERPT_BYTES)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
}

/** A short reason for the delivery log: the cause's code and message, not a stack. */
function describe(err: unknown): string {
  const e = err as Error & { code?: string; cause?: Error & { code?: string } };
  const inner = e.cause ?? e;
  if (e.name === 'AddressRefused' || inner.name === 'AddressRefused') return inner.message;
  const message = inner.message || e.message || String(err);
  const code = inner.code ?? e.code;
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}
