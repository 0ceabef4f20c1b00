/**
 * Group commit: writes share transactions. Two kinds of writes:
 * - `write` (events, anything a request changes) must be committed before the code that made it
 *   goes on: the first one in a transaction schedules the commit as a microtask, and the writes
 *   made until then join it. The microtask runs before any promise continuation queued after the
 *   write, in particular before the caller of the operation goes on to send its answer: an event
 *   is committed before the operation that caused it answers, as if each write committed at once.
 * - `writeSoon` (delivery outcomes, which nobody waits for) joins the open transaction or opens
 *   one committed at the end of this turn of the event loop, or, when the last commit was less
 *   than 5 ms ago, 5 ms after it: under load, outcomes share a commit (at most 200 of those a
 *   second) instead of paying one each.
 * Every write to the store goes through one of the two: a statement run while a transaction is
 * open becomes part of it.
 *
 * Why: a commit writes every page it touched to the WAL. With one commit per event and one per
 * delivery outcome, commits were the largest cost of delivering thousands of events a second;
 * grouped, a burst costs one commit, and its write amplification drops accordingly (the figures
 * are in docs/performance.md).
 */
import type { SqliteDatabase } from './sqlite.js';

export type CommitListener = (error: Error | undefined) => void;

/** `writeSoon` transactions commit at most this often. */
const SOON_INTERVAL_MS = 5;

export class GroupCommit {
  private open = false;
  /** Whether the open transaction's commit is scheduled as a microtask. */
  private soon = false;
  private lastCommit = 0;
  private before: Array<() => void> = [];
  private after: CommitListener[] = [];
  private readonly beginStatement;
  private readonly commitStatement;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly onError: (err: Error) => void,
  ) {
    this.beginStatement = db.prepare('BEGIN');
    this.commitStatement = db.prepare('COMMIT');
  }

  /**
   * Runs `write` in a transaction committed before the caller's continuation (see above). A
   * write that must be all or nothing wraps itself in `db.transaction()`, which inside the open
   * transaction is a savepoint.
   */
  write<T>(write: () => T): T {
    this.begin();
    if (!this.soon) {
      this.soon = true;
      queueMicrotask(() => this.commit());
    }
    return write();
  }

  /** Runs `write` in the open transaction, or one committed at the end of this turn. */
  writeSoon<T>(write: () => T): T {
    if (!this.open) {
      this.begin();
      const wait = this.lastCommit + SOON_INTERVAL_MS - performance.now();
      if (wait > 0) setTimeout(() => this.commit(), wait);
      else setImmediate(() => this.commit());
    }
    return write();
  }

  private begin(): void {
    if (this.open) return;
    this.beginStatement.run();
    this.open = true;
  }

  /** Runs `fn` right before this turn's transaction commits (once per call). */
  beforeCommit(fn: () => void): void {
    this.before.push(fn);
  }

  /** Runs `fn` once this turn's transaction committed, or failed (with the error). */
  afterCommit(fn: CommitListener): void {
    this.after.push(fn);
  }

  /** Commits now (the scheduled commit then finds nothing to do). */
  commit(): void {
    if (!this.open) return;
    let error: Error | undefined;
    try {
      for (const fn of this.before.splice(0)) fn();
      this.commitStatement.run();
    } catch (err) {
      error = err as Error;
      this.onError(error);
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
    }
    this.open = false;
    this.soon = false;
    this.lastCommit = performance.now();
    for (const fn of this.after.splice(0)) fn(error);
  }
}
