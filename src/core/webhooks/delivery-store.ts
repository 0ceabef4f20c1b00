/**
 * Deliveries in the store's `deliveries` table: the queue (pending rows with the time of their
 * next attempt) and the log (every row, with its attempts), one table for both so that a
 * delivery keeps one id and one record from its event to its last attempt, across restarts.
 *
 * A delivery's body is the event's envelope from the journal unless a transform changed it; only
 * then is it stored in the row. Its attempts are kept as lines of JSON, one per attempt, appended
 * as text (cheaper than rewriting a JSON array in SQL for every attempt). Rows are written inside the engine's transactions: created with
 * the event, updated with each batch of attempt outcomes.
 */
import type { JournalEventName } from '../events/catalogue.js';
import type { SqliteDatabase, Store } from '../store/database.js';
import type { JournalEntry, RetentionPolicy } from '../store/event-journal.js';
import { generateId } from './signer.js';
import type { Attempt, DeliveryDetail, DeliveryRecord, DeliveryStatus } from './types.js';

/** A pending delivery as the engine works with it. */
export interface DueDelivery {
  seq: number;
  id: string;
  webhookId: string;
  event: JournalEventName;
  /** The body when a transform made it; null: the event's envelope. */
  body: string | null;
  envelope: string | null;
  attempts: number;
  /** Attempts made before the current round of the retry schedule (a redelivery starts one). */
  roundStart: number;
  transformError: string | null;
}

/** The result of one attempt, written with its batch. */
export interface Outcome {
  delivery: DueDelivery;
  attempt: Attempt;
  status: DeliveryStatus;
  /** When a pending delivery is tried next. */
  nextAttemptAt?: number;
  /** The delivery's error after this attempt; null clears it. */
  error: string | null;
  /** A body made by the transform at this (first) attempt. */
  body?: string;
  transformError?: string;
}

export interface DeliveryFilter {
  webhookId?: string;
  status?: DeliveryStatus;
  limit: number;
  /** Only deliveries created before this one (a delivery id). */
  before?: string;
}

interface Row {
  seq: number;
  id: string;
  webhook_id: string;
  event_seq: number;
  event: JournalEventName;
  body: string | null;
  envelope: string | null;
  status: DeliveryStatus;
  attempts: number;
  round_start: number;
  next_attempt_at: number | null;
  last_attempt: number | null;
  response_status: number | null;
  error: string | null;
  transform_error: string | null;
  attempt_log: string | null;
  created_at: number;
}

const COLUMNS = `d.seq, d.id, d.webhook_id, d.event_seq, d.event, d.body, e.envelope, d.status, d.attempts,
  d.round_start, d.next_attempt_at, d.last_attempt, d.response_status, d.error, d.transform_error,
  d.created_at`;
const FROM = 'FROM deliveries d LEFT JOIN events e ON e.seq = d.event_seq';

export class DeliveryStore {
  private readonly db: SqliteDatabase;
  private readonly insert;
  private readonly dueRows;
  private readonly nextDue;
  private readonly update;
  private readonly listRows;
  private readonly byId;
  private readonly newest;

  constructor(private readonly store: Store) {
    const db = (this.db = store.db);
    this.insert = db.prepare<[string, string, number, string, number, number]>(
      `INSERT INTO deliveries (id, webhook_id, event_seq, event, status, next_attempt_at, created_at)
       VALUES (?, ?, ?, ?, 'pending', ?, ?)`,
    );
    this.dueRows = db.prepare<[string, number, number], Row>(
      `SELECT ${COLUMNS} ${FROM} WHERE d.webhook_id = ? AND d.status = 'pending' AND d.next_attempt_at <= ?
       ORDER BY d.next_attempt_at, d.seq LIMIT ?`,
    );
    this.nextDue = db.prepare<[string, number], { at: number | null }>(
      `SELECT min(next_attempt_at) AS at FROM deliveries
       WHERE webhook_id = ? AND status = 'pending' AND next_attempt_at > ?`,
    );
    this.update = db.prepare(
      `UPDATE deliveries SET attempts = @attempts, last_attempt = @at, status = @status,
         next_attempt_at = @next, response_status = coalesce(@responseStatus, response_status),
         error = @error, body = coalesce(@body, body), transform_error = coalesce(@transformError, transform_error),
         attempt_log = coalesce(attempt_log || char(10), '') || @attempt
       WHERE seq = @seq AND status = 'pending'`,
    );
    this.listRows = db.prepare(
      `SELECT ${COLUMNS} ${FROM}
       WHERE (@webhookId IS NULL OR d.webhook_id = @webhookId) AND (@status IS NULL OR d.status = @status)
         AND d.seq < @before
       ORDER BY d.seq DESC LIMIT @limit`,
    );
    this.byId = db.prepare<[string], Row>(`SELECT ${COLUMNS}, d.attempt_log ${FROM} WHERE d.id = ?`);
    this.newest = db.prepare<[], { seq: number | null }>('SELECT max(seq) AS seq FROM deliveries');
  }

  /** A new pending delivery of a journaled event, due now (inside the event's append). */
  create(webhookId: string, entry: JournalEntry, now: number): DueDelivery {
    const id = generateId('del', now);
    const seq = Number(this.insert.run(id, webhookId, entry.seq, entry.name, now, now).lastInsertRowid);
    return {
      seq,
      id,
      webhookId,
      event: entry.name,
      body: null,
      envelope: entry.envelope,
      attempts: 0,
      roundStart: 0,
      transformError: null,
    };
  }

  /** Pending deliveries of a webhook due at `now`, earliest first. */
  due(webhookId: string, now: number, limit: number): DueDelivery[] {
    return this.dueRows.all(webhookId, now, limit).map(toDue);
  }

  /** The seq of the newest delivery (0 when there is none). */
  lastSeq(): number {
    return this.newest.get()?.seq ?? 0;
  }

  /** When the next pending delivery of a webhook after `now` is due, if any. */
  nextDueAfter(webhookId: string, now: number): number | undefined {
    return this.nextDue.get(webhookId, now)?.at ?? undefined;
  }

  /** Writes one attempt's outcome; the caller chooses the transaction (`store.writeSoon`). */
  record(outcome: Outcome): void {
    const { delivery, attempt } = outcome;
    this.update.run({
      seq: delivery.seq,
      attempts: attempt.attempt,
      at: Date.parse(attempt.at),
      status: outcome.status,
      next: outcome.nextAttemptAt ?? null,
      responseStatus: attempt.responseStatus ?? null,
      error: outcome.error,
      body: outcome.body ?? null,
      transformError: outcome.transformError ?? null,
      attempt: JSON.stringify(attempt),
    });
  }

  /**
   * Ends the pending deliveries of one webhook (or of all, with `webhookId` undefined) as failed,
   * except those in `except` (attempts in flight, which end with their outcome).
   */
  failPending(webhookId: string | undefined, reason: string, except: readonly string[]): number {
    const statement = this.db.prepare(
      `UPDATE deliveries SET status = 'failed', next_attempt_at = NULL,
           error = coalesce(error || ' (not retried: ' || @reason || ')', 'Not sent: ' || @reason)
         WHERE status = 'pending' AND (@webhookId IS NULL OR webhook_id = @webhookId)
           AND id NOT IN (SELECT value FROM json_each(@except))`,
    );
    const params = { webhookId: webhookId ?? null, reason, except: JSON.stringify(except) };
    return this.store.write(() => statement.run(params).changes);
  }

  /** Ends the pending deliveries of webhooks that are no longer registered. */
  failOrphaned(known: readonly string[], reason: string): number {
    const statement = this.db.prepare(
      `UPDATE deliveries SET status = 'failed', next_attempt_at = NULL,
           error = coalesce(error || ' (not retried: ' || @reason || ')', 'Not sent: ' || @reason)
         WHERE status = 'pending' AND webhook_id NOT IN (SELECT value FROM json_each(@known))`,
    );
    return this.store.write(() => statement.run({ known: JSON.stringify(known), reason }).changes);
  }

  /**
   * The newest deliveries matching the filter (before `before`, when given), oldest first;
   * undefined when `before` names no delivery.
   */
  list(filter: DeliveryFilter): { deliveries: DeliveryRecord[]; hasMore: boolean } | undefined {
    let before = Number.MAX_SAFE_INTEGER;
    if (filter.before !== undefined) {
      const row = this.byId.get(filter.before);
      if (!row) return undefined;
      before = row.seq;
    }
    const rows = this.listRows.all({
      webhookId: filter.webhookId ?? null,
      status: filter.status ?? null,
      before,
      limit: filter.limit + 1,
    }) as Row[];
    const hasMore = rows.length > filter.limit;
    return { deliveries: rows.slice(0, filter.limit).reverse().map(toRecord), hasMore };
  }

  get(id: string): DeliveryDetail | undefined {
    const row = this.byId.get(id);
    if (!row) return undefined;
    const log = row.attempt_log === null ? [] : row.attempt_log.split('\n');
    return { ...toRecord(row), attemptLog: log.map((line) => JSON.parse(line) as Attempt) };
  }

  /**
   * Makes a delivery pending again, due now, with a new round of the retry schedule. Its id,
   * payload and attempt log stay.
   */
  redeliver(id: string, now: number): void {
    const statement = this.db.prepare(
      `UPDATE deliveries SET status = 'pending', next_attempt_at = ?, round_start = attempts WHERE id = ?`,
    );
    this.store.write(() => statement.run(now, id));
  }

  /** The newest delivery of a webhook (the one a ping just created). */
  latest(webhookId: string): DeliveryRecord | undefined {
    const row = this.db
      .prepare<[string], Row>(`SELECT ${COLUMNS} ${FROM} WHERE d.webhook_id = ? ORDER BY d.seq DESC LIMIT 1`)
      .get(webhookId);
    return row && toRecord(row);
  }

  /**
   * Removes finished deliveries older than the policy allows or beyond its record count (the
   * newest are kept); pending ones always stay. Returns how many were removed.
   */
  prune(policy: RetentionPolicy, now: number): number {
    const statement = this.db.prepare(
      `DELETE FROM deliveries WHERE status != 'pending' AND (created_at < ? OR seq <= ?)`,
    );
    return this.store.write(
      () => statement.run(now - policy.maxAgeMs, this.lastSeq() - policy.maxRecords).changes,
    );
  }

  /** The events kept deliveries refer to (the journal keeps them). */
  referencedEventSeqs(): number[] {
    return this.db
      .prepare<[], { seq: number }>('SELECT DISTINCT event_seq AS seq FROM deliveries')
      .all()
      .map((row) => row.seq);
  }
}

function toDue(row: Row): DueDelivery {
  return {
    seq: row.seq,
    id: row.id,
    webhookId: row.webhook_id,
    event: row.event,
    body: row.body,
    envelope: row.envelope,
    attempts: row.attempts,
    roundStart: row.round_start,
    transformError: row.transform_error,
  };
}

function toRecord(row: Row): DeliveryRecord {
  const text = row.body ?? row.envelope;
  const record: DeliveryRecord = {
    id: row.id,
    webhookId: row.webhook_id,
    event: row.event,
    payload: text === null ? null : (JSON.parse(text) as unknown),
    status: row.status,
    attempts: row.attempts,
    createdAt: new Date(row.created_at).toISOString(),
  };
  if (row.last_attempt !== null) record.lastAttempt = new Date(row.last_attempt).toISOString();
  if (row.status === 'pending' && row.next_attempt_at !== null) {
    record.nextAttempt = new Date(row.next_attempt_at).toISOString();
  }
  if (row.response_status !== null) record.responseStatus = row.response_status;
  if (row.error !== null) record.error = row.error;
  if (row.transform_error !== null) record.transformError = row.transform_error;
  return record;
}
