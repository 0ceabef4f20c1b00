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
import type { EventJournal, JournalEntry } from '../../core/store/event-journal.js';
import { sseComment, sseMessage } from './format.js';
import { SseStream, type SseStreamOptions } from './sse-stream.js';

export { HEARTBEAT_MS, STALL_MS } from './sse-stream.js';

export type JournalFeed = Pick<EventJournal, 'subscribe' | 'eventsSince' | 'latestSeq' | 'completeFrom'>;

export interface JournalStreamOptions extends SseStreamOptions {
  journal: JournalFeed;
  /** Entries after this sequence number are sent (the latest one for a stream without replay). */
  after: number;
  /** Only these events; undefined for all. */
  names?: readonly string[];
}

/** Entries read from the journal at once. */
const PAGE = 100;

export class JournalStream extends SseStream {
  /** Every entry up to this sequence number was sent or filtered out. */
  private seen: number;
  private readonly unsubscribe: () => void;
  private readonly names: ReadonlySet<string> | undefined;

  constructor(private readonly options: JournalStreamOptions) {
    super(options);
    const { journal, after } = options;
    this.seen = after;
    this.names = options.names ? new Set(options.names) : undefined;
    // Subscribed in the same synchronous turn as the first read of the journal below (in
    // _read): no entry can be journaled in between, so none is missed or sent twice.
    this.unsubscribe = journal.subscribe((entry) => this.onEntry(entry));
    const from = journal.completeFrom();
    if (from !== undefined && from > after + 1) {
      this.push(sseComment(`events ${after + 1} to ${from - 1} are no longer kept; replaying from ${from}`));
      this.seen = from - 1;
    }
  }

  /** Pushes journal entries after `seen` until the client's buffer is full or all are sent. */
  protected pump(): void {
    const { journal } = this.options;
    const names = this.names ? [...this.names] : undefined;
    for (;;) {
      if (!this.open) return;
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

  protected release(): void {
    this.unsubscribe();
  }

  /** A new journal entry: written at once when the client is waiting, else read later by pump. */
  private onEntry(entry: JournalEntry): void {
    if (!this.waiting || !this.open || entry.seq <= this.seen) return;
    this.seen = entry.seq;
    if (this.names && !this.names.has(entry.name)) return;
    this.send(sseMessage(entry));
  }
}
