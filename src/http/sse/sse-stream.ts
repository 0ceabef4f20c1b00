/**
 * What every Server-Sent Events response of the server shares: the `retry:` line first (it also
 * sends the response headers, so the client's `open` fires at once), a heartbeat comment on the
 * injected clock while the client keeps up, disconnecting a client that stopped reading, and an
 * end on shutdown. Subclasses say what to send: `pump()` when the client wants more, `send()`
 * when they have something new.
 */
import { Readable } from 'node:stream';
import type { Clock, TimerHandle } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import { sseComment, sseRetry } from './format.js';

export interface SseStreamOptions {
  clock: Clock;
  log: Logger;
  heartbeatMs?: number;
  stallMs?: number;
}

export const HEARTBEAT_MS = 15_000;
/** Four heartbeats without the client reading. */
export const STALL_MS = 60_000;
/** The reconnection delay clients are told. */
export const RETRY_MS = 3_000;

export abstract class SseStream extends Readable {
  /** The client has read everything and wants more: something new can be pushed at once. */
  protected waiting = false;
  private lastReadAt: number;
  private finishing = false;
  private heartbeat: TimerHandle | undefined;
  private readonly heartbeatMs: number;
  private readonly stallMs: number;

  constructor(protected readonly sse: SseStreamOptions) {
    super({ highWaterMark: 64 * 1024 });
    this.heartbeatMs = sse.heartbeatMs ?? HEARTBEAT_MS;
    this.stallMs = sse.stallMs ?? STALL_MS;
    this.lastReadAt = sse.clock.now();
    this.push(sseRetry(RETRY_MS));
    this.arm();
  }

  /** Ends the stream (server shutdown): the client sees the end and reconnects later. */
  finish(): void {
    if (!this.open) return;
    this.finishing = true;
    this.stop();
    this.push(null);
  }

  /** Neither finished nor destroyed: worth sending to. */
  protected get open(): boolean {
    return !this.finishing && !this.destroyed;
  }

  /** Pushes what is waiting for the client until its buffer is full; sets `waiting` when done. */
  protected abstract pump(): void;

  /** Releases what the subclass holds (subscriptions); called once, on finish or destroy. */
  protected abstract release(): void;

  /** Writes `text` when the client is waiting; false when it must wait for the next read. */
  protected send(text: string): boolean {
    if (!this.waiting || !this.open) return false;
    this.waiting = this.push(text);
    return true;
  }

  override _read(): void {
    this.lastReadAt = this.sse.clock.now();
    this.waiting = false;
    if (this.open) this.pump();
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    this.stop();
    callback(err);
  }

  private arm(): void {
    this.heartbeat = this.sse.clock.setTimer(this.heartbeatMs, () => this.beat());
  }

  private beat(): void {
    if (!this.open) return;
    if (this.waiting) {
      this.waiting = this.push(sseComment('heartbeat'));
    } else if (this.sse.clock.now() - this.lastReadAt >= this.stallMs) {
      this.sse.log.info({ stream: this.constructor.name }, 'event stream closed: the client stopped reading');
      this.destroy();
      return;
    }
    this.arm();
  }

  private stopped = false;

  private stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.heartbeat?.cancel();
    this.heartbeat = undefined;
    this.release();
  }
}
