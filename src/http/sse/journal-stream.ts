/**
 * One client's event stream: the journal's entries after a sequence number (`Last-Event-ID`), then
 * every new one, as Server-Sent Events (docs/agents.md).
 *
 * The journal is the buffer. The stream remembers only how far it has sent (`seen`) and pulls the
 * next entries from the journal when the client has read what it had, one page at a time, so a
 * slow client costs at most a page and the socket's own buffers, never a queue that grows with
 * every event. While the stream is caught up and the client reading, a new entry is written as
 * it is journaled, without a query. A client that stops reading for `stallMs` is disconnected; it
 * resumes from its `Last-Event-ID` when it reconnects.
 */
import { Readable } from 'node:stream';
import type { Clock, TimerHandle } from '../../core/clock.js';
import type { EventJournal, JournalEntry } from '../../core/store/event-journal.js';
import type { Logger } from '../../core/logger.js';
import { sseComment, sseMessage, sseRetry } from './format.js';

export type JournalFeed = Pick<EventJournal, 'subscribe' | 'eventsSince' | 'latestSeq' | 'oldestSeq'>;

export interface JournalStreamOptions {
  journal: JournalFeed;
  /** Entries after this sequence number are sent (the latest one for a stream without replay). */
  after: number;
  /** Only these events; undefined for all. */
  names?: readonly string[];
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
/** Entries read from the journal at once. */
const PAGE = 100;

export class JournalStream extends Readable {
  /** Every entry up to this sequence number was sent or filtered out. */
  private seen: number;
  /** The client has read everything and wants more: a new entry can be pushed at once. */
  private waiting = false;
  private lastReadAt: number;
  private finishing = false;
  private heartbeat: TimerHandle | undefined;
  private readonly unsubscribe: () => void;
  private readonly names: ReadonlySet<string> | undefined;
  private readonly heartbeatMs: number;
  private readonly stallMs: number;

  constructor(private readonly options: JournalStreamOptions) {
    super({ highWaterMark: 64 * 1024 });
    const { journal, after, clock } = options;
    this.seen = after;
    this.names = options.names ? new Set(options.names) : undefined;
    this.heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
    this.stallMs = options.stallMs ?? STALL_MS;
    this.lastReadAt = clock.now();
    // Subscribed in the same synchronous turn as the first read of the journal below (in
    // _read): no entry can be journaled in between, so none is missed or sent twice.
    this.unsubscribe = journal.subscribe((entry) => this.onEntry(entry));
    // The first bytes also send the response headers, so the client's `open` fires at once.
    this.push(sseRetry(RETRY_MS));
    const oldest = journal.oldestSeq();
    if (oldest !== undefined && oldest > after + 1) {
      this.push(
        sseComment(`events ${after + 1} to ${oldest - 1} are no longer kept; replaying from ${oldest}`),
      );
    }
    this.arm();
  }

  /** Ends the stream (server shutdown): the client sees the end and reconnects later. */
  finish(): void {
    if (this.finishing || this.destroyed) return;
    this.finishing = true;
    this.stop();
    this.push(null);
  }

  override _read(): void {
    this.lastReadAt = this.options.clock.now();
    this.waiting = false;
    this.pump();
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    this.stop();
    callback(err);
  }

  /** Pushes journal entries after `seen` until the client's buffer is full or all are sent. */
  private pump(): void {
    const { journal } = this.options;
    const names = this.names ? [...this.names] : undefined;
    for (;;) {
      if (this.finishing || this.destroyed) return;
      const latest = journal.latestSeq();
      const page = journal.eventsSince(this.seen, { names, limit: PAGE });
      for (const entry of page) {
        this.seen = entry.seq;
        if (!this.push(sseMessage(entry))) return;
      }
      if (page.length < PAGE) {
        // Entries up to `latest` that the page does not hold were filtered out.
        this.seen = Math.max(this.seen, latest);
        this.waiting = true;
        return;
      }
    }
  }

  /** A new journal entry: written at once when the client is waiting, else read later by pump. */
  private onEntry(entry: JournalEntry): void {
    if (!this.waiting || this.finishing || entry.seq <= this.seen) return;
    this.seen = entry.seq;
    if (this.names && !this.names.has(entry.name)) return;
    this.waiting = this.push(sseMessage(entry));
  }

  private arm(): void {
    this.heartbeat = this.options.clock.setTimer(this.heartbeatMs, () => this.beat());
  }

  private beat(): void {
    if (this.finishing || this.destroyed) return;
    if (this.waiting) {
      this.waiting = this.push(sseComment('heartbeat'));
    } else if (this.options.clock.now() - this.lastReadAt >= this.stallMs) {
      this.options.log.info({ seen: this.seen }, 'event stream closed: the client stopped reading');
      this.destroy();
      return;
    }
    this.arm();
  }

  private stop(): void {
    this.unsubscribe();
    this.heartbeat?.cancel();
    this.heartbeat = undefined;
  }
}
