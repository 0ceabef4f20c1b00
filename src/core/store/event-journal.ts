/**
 * The event journal: every event, in the order it happened, with an increasing sequence number,
 * persisted in the store. It is the source of the webhook deliveries and of the event stream's
 * replay (`Last-Event-ID`); docs/store.md documents the API for both.
 *
 * Appending is synchronous: the bus calls `append` while the emitting operation runs, and the
 * append joins the store's group commit (group-commit.ts), so the event is committed before that
 * operation answers. Parts that derive rows from an event (the webhook deliveries) register with
 * `onAppend` and write inside the same savepoint, so an event and what it causes are committed
 * together or not at all. `subscribe` listeners hear of entries once they are committed.
 */
import { DomainError } from '../errors.js';
import type { EventBus } from '../events/bus.js';
import type { JournalEventName } from '../events/catalogue.js';
import type { Logger } from '../logger.js';
import type { SqliteDatabase, Store } from './database.js';

export interface JournalEntry {
  /** Increasing, never reused (the newest entry is never pruned). Use it as the SSE `id:`. */
  seq: number;
  name: JournalEventName;
  /** Epoch milliseconds at which the event happened. */
  at: number;
  /** The envelope as compact JSON text: exactly the body a webhook without transform receives. */
  envelope: string;
}

export interface EventEnvelope {
  event: JournalEventName;
  timestamp: string;
  vault: { name: string; path: string };
  data: unknown;
}

export interface RetentionPolicy {
  /** Entries older than this are removed. */
  maxAgeMs: number;
  /** At most this many entries are kept (the newest). */
  maxRecords: number;
}

export const DEFAULT_RETENTION: RetentionPolicy = { maxAgeMs: 7 * 24 * 3600_000, maxRecords: 10_000 };

/** The answer to a change whose events could not be recorded (see EventJournal.recording). */
export const EVENTS_LOST =
  'The change was made, but its events could not be recorded (the data dir cannot be written; see the log): webhooks and event streams will not get them';
/** The answer to a change of the store's own state (a webhook, say) whose commit failed. */
export const CHANGE_NOT_SAVED = 'The change could not be saved (the data dir cannot be written; see the log)';

type Listener = (entry: JournalEntry) => void;

interface Row {
  seq: number;
  name: JournalEventName;
  at: number;
  envelope: string;
}

export class EventJournal {
  private readonly db: SqliteDatabase;
  private readonly writers = new Set<(entry: JournalEntry) => void>();
  private readonly listeners = new Set<Listener>();
  private readonly insert;
  private readonly since;
  private readonly sinceNamed;
  private readonly latest;
  private readonly tailStart;
  private readonly appendTx;
  /** Entries appended in this turn's transaction, announced once it commits. */
  private batch: JournalEntry[] = [];

  constructor(
    private readonly store: Store,
    private readonly vault: { name: string; path: string },
    private readonly log: Logger,
  ) {
    const db = (this.db = store.db);
    this.insert = db.prepare<[string, number, string]>(
      'INSERT INTO events (name, at, envelope) VALUES (?, ?, ?)',
    );
    this.since = db.prepare<[number, number], Row>(
      'SELECT seq, name, at, envelope FROM events WHERE seq > ? ORDER BY seq LIMIT ?',
    );
    this.sinceNamed = db.prepare<[number, string, number], Row>(
      'SELECT seq, name, at, envelope FROM events WHERE seq > ? ' +
        'AND name IN (SELECT value FROM json_each(?)) ORDER BY seq LIMIT ?',
    );
    this.latest = db.prepare<[], { seq: number | null }>('SELECT max(seq) AS seq FROM events');
    // Sequence numbers are consecutive (a rowid is the largest plus one) until pruning leaves gaps:
    // the start of the last unbroken run, found through the primary key.
    this.tailStart = db.prepare<[], { seq: number }>(
      'SELECT e.seq AS seq FROM events e WHERE NOT EXISTS (SELECT 1 FROM events p WHERE p.seq = e.seq - 1) ' +
        'ORDER BY e.seq DESC LIMIT 1',
    );
    this.appendTx = db.transaction((name: JournalEventName, at: number, envelope: string): JournalEntry => {
      const seq = Number(this.insert.run(name, at, envelope).lastInsertRowid);
      const entry: JournalEntry = { seq, name, at, envelope };
      for (const write of this.writers) write(entry);
      return entry;
    });
  }

  /** Journals every event of the bus; returns the unsubscribe function. */
  attach(bus: EventBus): () => void {
    return bus.onAny((event) => this.append(event.name, event.data, event.at));
  }

  /**
   * Records an event and returns its entry; it is committed with this turn's writes, before the
   * emitting operation's caller goes on. Throws when the store cannot be written (disk full,
   * closed) or a writer fails, keeping nothing of the event; the bus logs it without failing the
   * emitter.
   */
  append(name: JournalEventName, data: unknown, at: number): JournalEntry {
    const envelope: EventEnvelope = {
      event: name,
      timestamp: new Date(at).toISOString(),
      vault: { name: this.vault.name, path: this.vault.path },
      data,
    };
    const text = JSON.stringify(envelope);
    let entry;
    try {
      // A savepoint inside this turn's transaction: a failed append undoes only itself.
      entry = this.store.write(() => this.appendTx(name, at, text));
    } catch (err) {
      this.lostEvents += 1;
      throw err;
    }
    if (this.batch.push(entry) === 1) this.store.afterCommit((error) => this.announce(error));
    return entry;
  }

  /**
   * How many events could not be recorded since the start (an append or its commit failed: the
   * data dir's disk full, the file gone). An operation that sees it grow while it ran must not
   * answer as if its change's webhooks and stream events were on their way.
   */
  lostEvents = 0;

  /**
   * Runs a change for a client (an HTTP request, an MCP tool call) and throws UNAVAILABLE when a
   * commit of the store failed while it ran: EVENTS_LOST when events were lost (the client must
   * not take the change as acknowledged when its webhooks and stream events will not come),
   * CHANGE_NOT_SAVED when other writes were (a webhook's registration). The commit of the
   * change's writes has run by the time `work` settles (it is due before any continuation of the
   * operation). A commit failed meanwhile by anything else counts too: the data dir cannot be
   * written.
   */
  async recording<T>(work: () => Promise<T>): Promise<T> {
    const events = this.lostEvents;
    const commits = this.store.failedCommits;
    const result = await work();
    if (this.lostEvents > events) throw new DomainError('UNAVAILABLE', EVENTS_LOST);
    if (this.store.failedCommits > commits) throw new DomainError('UNAVAILABLE', CHANGE_NOT_SAVED);
    return result;
  }

  private announce(error: Error | undefined): void {
    const batch = this.batch;
    this.batch = [];
    if (error) {
      this.lostEvents += batch.length;
      return;
    }
    for (const entry of batch) {
      for (const listener of this.listeners) {
        try {
          listener(entry);
        } catch (err) {
          this.log.error({ err, event: entry.name, seq: entry.seq }, 'event journal listener failed');
        }
      }
    }
  }

  /**
   * Registers a writer that runs inside each append's savepoint: what it writes is committed
   * with the event; if it throws, neither is kept.
   */
  onAppend(write: (entry: JournalEntry) => void): () => void {
    this.writers.add(write);
    return () => this.writers.delete(write);
  }

  /** Hears of every entry once it is committed, in order; returns the unsubscribe function. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Entries after `seq`, oldest first, at most `limit` (page with the last seq returned). With
   * `names`, only those events. Called in the same synchronous turn as `subscribe`, nothing can
   * fall between the two: that is how a stream replays and then follows without gaps.
   */
  eventsSince(seq: number, options: { names?: readonly string[]; limit?: number } = {}): JournalEntry[] {
    const limit = options.limit ?? 1000;
    return options.names
      ? this.sinceNamed.all(seq, JSON.stringify(options.names), limit)
      : this.since.all(seq, limit);
  }

  /** Sequence number of the newest entry; 0 when the journal is empty. */
  latestSeq(): number {
    return this.latest.get()?.seq ?? 0;
  }

  /**
   * The first sequence number from which every entry up to the newest is kept; undefined when the
   * journal is empty. Entries before it were pruned, except those a kept delivery still refers
   * to (see prune), which are out of retention for everyone else: a stream does not replay them.
   */
  completeFrom(): number | undefined {
    return this.tailStart.get()?.seq;
  }

  /**
   * Removes entries older than the policy allows, except the newest (so sequence numbers are
   * never reused) and those `referenced` (events that kept deliveries still send). Keeping every
   * entry from the oldest referenced one on, as before, let one delivery that stayed pending for
   * weeks keep the whole journal since. Returns how many were removed.
   */
  prune(policy: RetentionPolicy, now: number, referenced: readonly number[] = []): number {
    const latest = this.latestSeq();
    const statement = this.db.prepare(
      'DELETE FROM events WHERE seq < ? AND (at < ? OR seq <= ?) AND seq NOT IN (SELECT value FROM json_each(?))',
    );
    return this.store.write(
      () =>
        statement.run(latest, now - policy.maxAgeMs, latest - policy.maxRecords, JSON.stringify(referenced))
          .changes,
    );
  }
}
