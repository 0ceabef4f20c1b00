/**
 * A database connection that can be replaced by another one on the same file without its users
 * noticing: statements prepared through it are prepared again on the new connection at their
 * next use. The store needs this when its file was removed or replaced while Taskdown ran
 * (store-file.ts): the open connection's data is written back to the path and a new connection
 * opened on it, while the journal, the webhook registry and the delivery store keep the
 * statements they prepared at start-up.
 *
 * The cost is one call and one comparison per statement run: the webhook bench, which runs the
 * most statements, measured 0.45 and 0.52 of the bare loop with it and 0.52 and 0.46 without,
 * alternating (Node 20.20), i.e. within its noise.
 */
import type { DriverName, RunResult, SqliteDatabase, Statement } from './sqlite.js';
import { transactionOf } from './transaction.js';

export class ReopenableDatabase implements SqliteDatabase {
  /** Counts the connections: a statement prepared on an older one is prepared again. */
  private generation = 0;
  readonly transaction: SqliteDatabase['transaction'];

  constructor(private current: SqliteDatabase) {
    this.transaction = transactionOf(this);
  }

  /** The connection in use (for the code that writes it back to the file). */
  get connection(): SqliteDatabase {
    return this.current;
  }

  /**
   * Uses `next` from now on. The caller closes the old connection; it must not be inside a
   * transaction (one connection's transaction cannot move to another).
   */
  replace(next: SqliteDatabase): void {
    this.current = next;
    this.generation += 1;
  }

  get driver(): DriverName {
    return this.current.driver;
  }

  get isOpen(): boolean {
    return this.current.isOpen;
  }

  get inTransaction(): boolean {
    return this.current.inTransaction;
  }

  exec(sql: string): void {
    this.current.exec(sql);
  }

  pragma(setting: string): unknown {
    return this.current.pragma(setting);
  }

  prepare<P extends unknown[] = unknown[], R = unknown>(sql: string): Statement<P, R> {
    return new ReopenableStatement<P, R>(this, sql, this.current.prepare<P, R>(sql), this.generation);
  }

  close(): void {
    this.current.close();
  }

  /** The statement of `sql` on the current connection, prepared again when it changed. */
  renew<P extends unknown[], R>(holder: ReopenableStatement<P, R>): Statement<P, R> {
    if (holder.generation !== this.generation) {
      holder.statement = this.current.prepare<P, R>(holder.sql);
      holder.generation = this.generation;
    }
    return holder.statement;
  }
}

class ReopenableStatement<P extends unknown[], R> implements Statement<P, R> {
  constructor(
    private readonly db: ReopenableDatabase,
    readonly sql: string,
    public statement: Statement<P, R>,
    public generation: number,
  ) {}

  run(...params: P): RunResult {
    return this.db.renew(this).run(...params);
  }

  get(...params: P): R | undefined {
    return this.db.renew(this).get(...params);
  }

  all(...params: P): R[] {
    return this.db.renew(this).all(...params);
  }

  iterate(...params: P): IterableIterator<R> {
    return this.db.renew(this).iterate(...params);
  }
}
