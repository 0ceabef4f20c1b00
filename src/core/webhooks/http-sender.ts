/**
 * Sends one delivery attempt: an HTTP(S) POST over pooled keep-alive connections, so a busy
 * receiver is not paying a TCP (and TLS) handshake per delivery. The per-attempt timeout runs on
 * the injected Clock and covers the whole exchange, response body included. One sweep timer
 * checks every request in flight instead of a timer per request (arming and cancelling a timer
 * per delivery was a measurable share of the cost at thousands of deliveries a second); a request
 * is aborted within `timeoutMs` plus one sweep interval.
 */
import http from 'node:http';
import https from 'node:https';
import type { Clock, TimerHandle } from '../clock.js';

export interface SendResult {
  status: number;
  /** The start of the response body (for the error of a non-2xx answer). */
  text: string;
}

export interface Sender {
  /**
   * POSTs `body` as UTF-8 with `headers` (the object is used as is and gets Content-Length).
   * A string body lets Node write headers and body in one system call.
   */
  send(url: string, headers: Record<string, string>, body: string): Promise<SendResult>;
  /** Closes pooled connections and aborts requests in flight. */
  destroy(): void;
}

/** Enough of a response body to explain a failure in the delivery log. */
const MAX_ERROR_TEXT = 500;

export interface HttpSenderOptions {
  clock: Clock;
  timeoutMs: number;
  /** Concurrent connections per receiver origin. */
  maxSockets?: number;
}

interface Target {
  https: boolean;
  hostname: string;
  port: string;
  path: string;
}

export function createHttpSender({ clock, timeoutMs, maxSockets = 64 }: HttpSenderOptions): Sender {
  const agents = {
    http: new http.Agent({ keepAlive: true, maxSockets }),
    https: new https.Agent({ keepAlive: true, maxSockets }),
  };
  /** Requests in flight and the clock time at which each one times out. */
  const live = new Map<http.ClientRequest, number>();
  const sweepMs = Math.max(1, Math.min(1000, Math.ceil(timeoutMs / 10)));
  let sweeper: TimerHandle | undefined;
  const sweep = (): void => {
    sweeper = undefined;
    const now = clock.now();
    for (const [req, deadline] of live) {
      if (now >= deadline) req.destroy(new Error(`Request timed out after ${timeoutMs} ms`));
    }
    if (live.size > 0) sweeper = clock.setTimer(sweepMs, sweep);
  };
  // Receivers are few and fixed; parsing their URL on every delivery is measurable at load.
  const targets = new Map<string, Target>();
  const targetOf = (url: string): Target => {
    let target = targets.get(url);
    if (!target) {
      const u = new URL(url);
      target = {
        https: u.protocol === 'https:',
        hostname: u.hostname.replace(/^\[|\]$/g, ''),
        port: u.port,
        path: u.pathname + u.search,
      };
      if (targets.size >= 256) targets.clear();
      targets.set(url, target);
    }
    return target;
  };

  /** One exchange, reported through a callback: this runs thousands of times a second. */
  const exchange = (
    target: Target,
    headers: Record<string, string>,
    body: string,
    done: (err: Error | null, result?: SendResult) => void,
    retried = false,
  ): void => {
    const options = {
      method: 'POST',
      hostname: target.hostname,
      port: target.port,
      path: target.path,
      agent: target.https ? agents.https : agents.http,
      headers,
    };
    const req = target.https ? https.request(options) : http.request(options);
    live.set(req, clock.now() + timeoutMs);
    sweeper ??= clock.setTimer(sweepMs, sweep);
    req.on('error', (err: NodeJS.ErrnoException) => {
      live.delete(req);
      // A pooled connection the receiver closed while idle fails on first use; that says
      // nothing about the receiver, so the request goes once more on a fresh connection.
      if (!retried && req.reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE')) {
        exchange(target, headers, body, done, true);
      } else {
        done(err);
      }
    });
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      let text = '';
      if (status >= 200 && status < 300) {
        res.resume(); // success bodies are drained unread
      } else {
        // The start of a failure body is kept for the error message.
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (text.length < MAX_ERROR_TEXT) text += chunk;
        });
      }
      res.on('end', () => {
        live.delete(req);
        done(null, { status, text: text.slice(0, MAX_ERROR_TEXT) });
      });
      res.on('error', (err) => {
        live.delete(req);
        done(err);
      });
    });
    req.end(body);
  };

  return {
    send(url, headers, body) {
      return new Promise<SendResult>((resolve, reject) => {
        const target = targetOf(url);
        headers['Content-Length'] = String(Buffer.byteLength(body, 'utf8'));
        exchange(target, headers, body, (err, result) => (err ? reject(err) : resolve(result as SendResult)));
      });
    },
    destroy() {
      sweeper?.cancel();
      sweeper = undefined;
      for (const req of live.keys()) req.destroy(new Error('Webhook delivery stopped'));
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}
