/**
 * Transactions for both SQLite drivers (sqlite.ts), one implementation, so that they behave the
 * same: BEGIN … COMMIT, or a savepoint inside an open transaction, and a rollback of exactly what
 * the wrapped function wrote when it throws. (`node:sqlite` has no such helper; better-sqlite3's
 * would differ in details.)
 */
import type { SqliteDatabase, Statement } from './sqlite.js';

/** The `transaction` method of a database (see `SqliteDatabase.transaction`). */
export function transactionOf(db: Pick<SqliteDatabase, 'inTransaction' | 'prepare'>) {
  let statements:
    Record<'begin' | 'commit' | 'rollback' | 'savepoint' | 'release' | 'undo', Statement> | undefined;
  const prepared = () =>
    (statements ??= {
      begin: db.prepare('BEGIN'),
      commit: db.prepare('COMMIT'),
      rollback: db.prepare('ROLLBACK'),
      savepoint: db.prepare('SAVEPOINT nested'),
      release: db.prepare('RELEASE nested'),
      undo: db.prepare('ROLLBACK TO nested'),
    });
  return <A extends unknown[], T>(fn: (...args: A) => T) =>
    (...args: A): T => {
      const s = prepared();
      const nested = db.inTransaction;
      s[nested ? 'savepoint' : 'begin'].run();
      let result: T;
      try {
        result = fn(...args);
        s[nested ? 'release' : 'commit'].run();
      } catch (err) {
        // SQLite may have ended the transaction itself (a full disk, an I/O error).
        if (db.inTransaction) {
          if (nested) {
            s.undo.run();
            s.release.run();
          } else {
            s.rollback.run();
          }
        }
        throw err;
      }
      return result;
    };
}
