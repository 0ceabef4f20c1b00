/**
 * Slows down token guessing: a client address that presents a wrong token `maxFailures` times
 * within `windowMs` is refused (429 with Retry-After) for `lockMs`, without its token being
 * checked, so guesses made meanwhile learn nothing. Other addresses are unaffected; requests
 * without any Authorization header (a settings page that has not asked for the token yet) do not
 * count. One log line per lockout. Behind a reverse proxy every client shares the proxy's
 * address (see docs/security.md).
 */
import type { FastifyBaseLogger } from 'fastify';

export interface LockoutOptions {
  /** Milliseconds since the epoch (injected in tests). */
  now: () => number;
  maxFailures?: number;
  windowMs?: number;
  lockMs?: number;
  /** Addresses remembered at most; the oldest are forgotten first. */
  maxClients?: number;
}

interface ClientRecord {
  failures: number;
  windowStart: number;
  lockedUntil: number;
}

export class AuthLockout {
  private readonly clients = new Map<string, ClientRecord>();
  private readonly now: () => number;
  readonly maxFailures: number;
  readonly windowMs: number;
  readonly lockMs: number;
  private readonly maxClients: number;

  constructor(options: LockoutOptions) {
    this.now = options.now;
    this.maxFailures = options.maxFailures ?? 10;
    this.windowMs = options.windowMs ?? 60_000;
    this.lockMs = options.lockMs ?? 60_000;
    this.maxClients = options.maxClients ?? 10_000;
  }

  /** Whole seconds `client` must wait before its token is checked again; 0 when not locked. */
  retryAfter(client: string): number {
    const record = this.clients.get(client);
    const left = record ? record.lockedUntil - this.now() : 0;
    return left > 0 ? Math.ceil(left / 1000) : 0;
  }

  recordFailure(client: string, log: FastifyBaseLogger): void {
    const now = this.now();
    let record = this.clients.get(client);
    if (!record || now - record.windowStart >= this.windowMs) {
      record = { failures: 0, windowStart: now, lockedUntil: 0 };
    }
    this.clients.delete(client); // re-inserted last: the map's order is least recently failed first
    this.clients.set(client, record);
    if (++record.failures >= this.maxFailures) {
      record.lockedUntil = now + this.lockMs;
      record.failures = 0;
      record.windowStart = now;
      log.warn(
        { client, failures: this.maxFailures, lockSeconds: this.lockMs / 1000 },
        `${this.maxFailures} wrong tokens from ${client}: its requests answer 429 for ${this.lockMs / 1000} s`,
      );
    }
    if (this.clients.size > this.maxClients) {
      const oldest = this.clients.keys().next().value;
      if (oldest !== undefined) this.clients.delete(oldest);
    }
  }

  recordSuccess(client: string): void {
    this.clients.delete(client);
  }
}
