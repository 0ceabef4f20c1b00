/**
 * The better-sqlite3 implementation of the store's SQLite driver (sqlite.ts), for Node 20, which
 * has no built-in SQLite. Its statements already behave as the interface says (plain row
 * objects, numbers unless asked for BigInts), so they are handed out as they are.
 */
import type BetterSqlite3 from 'better-sqlite3';
import type { OpenOptions, SqliteDatabase, Statement } from './sqlite.js';
import { transactionOf } from './transaction.js';

/** Opens `file` with the better-sqlite3 constructor `Database` (loaded by the caller). */
export function openBetterSqlite3(Database: unknown, file: string, options: OpenOptions): SqliteDatabase {
  const Constructor = Database as typeof BetterSqlite3;
  const db = new Constructor(file, {
    readonly: options.readonly ?? false,
    fileMustExist: options.readonly ?? false,
    timeout: options.busyTimeoutMs ?? 5000,
  });
  const prepare = <P extends unknown[], R>(sql: string): Statement<P, R> =>
    db.prepare(sql) as unknown as Statement<P, R>;
  return {
    driver: 'better-sqlite3',
    get isOpen() {
      return db.open;
    },
    get inTransaction() {
      return db.inTransaction;
    },
    exec: (sql) => void db.exec(sql),
    prepare,
    pragma: (setting) => db.pragma(setting, { simple: true }),
    transaction: transactionOf({
      get inTransaction() {
        return db.inTransaction;
      },
      prepare,
    }),
    close: () => void db.close(),
  };
}
