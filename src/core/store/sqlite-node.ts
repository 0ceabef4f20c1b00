/**
 * The `node:sqlite` implementation of the store's SQLite driver (sqlite.ts): Node's built-in
 * SQLite, used wherever Node has it. Its rows are objects without a prototype; they are copied
 * into plain objects, so that callers see the same rows as with better-sqlite3.
 */
import type { OpenOptions, RunResult, SqliteDatabase, Statement } from './sqlite.js';
import { transactionOf } from './transaction.js';

// The part of `node:sqlite` used here (the project's @types/node is Node 20's, which has none).
type Row = Record<string, unknown>;
interface StatementSync {
  run(...params: unknown[]): RunResult;
  get(...params: unknown[]): Row | undefined;
  all(...params: unknown[]): Row[];
  iterate(...params: unknown[]): IterableIterator<Row>;
}
interface DatabaseSync {
  readonly isOpen: boolean;
  readonly isTransaction: boolean;
  exec(sql: string): void;
  prepare(sql: string): StatementSync;
  close(): void;
}
export interface NodeSqliteModule {
  DatabaseSync: new (file: string, options: { readOnly: boolean; timeout: number }) => DatabaseSync;
}

/** Node's built-in SQLite module, or undefined where this Node has none (Node 20). */
export function nodeSqlite(): NodeSqliteModule | undefined {
  try {
    return process.getBuiltinModule('node:sqlite') as NodeSqliteModule | undefined;
  } catch {
    return undefined;
  }
}

export function openNodeSqlite(module: NodeSqliteModule, file: string, options: OpenOptions): SqliteDatabase {
  const db = new module.DatabaseSync(file, {
    readOnly: options.readonly ?? false,
    timeout: options.busyTimeoutMs ?? 5000,
  });
  const prepare = <P extends unknown[], R>(sql: string): Statement<P, R> =>
    new NodeStatement<P, R>(db.prepare(sql));
  return {
    driver: 'node:sqlite',
    get isOpen() {
      return db.isOpen;
    },
    get inTransaction() {
      return db.isTransaction;
    },
    exec: (sql) => db.exec(sql),
    prepare,
    pragma(setting) {
      const row = db.prepare(`PRAGMA ${setting}`).get();
      return row === undefined ? undefined : Object.values(row)[0];
    },
    transaction: transactionOf({
      get inTransaction() {
        return db.isTransaction;
      },
      prepare,
    }),
    close: () => db.close(),
  };
}

class NodeStatement<P extends unknown[], R> implements Statement<P, R> {
  constructor(private readonly statement: StatementSync) {}

  run(...params: P): RunResult {
    return this.statement.run(...params);
  }

  get(...params: P): R | undefined {
    const row = this.statement.get(...params);
    return row === undefined ? undefined : ({ ...row } as R);
  }

  all(...params: P): R[] {
    return this.statement.all(...params).map((row) => ({ ...row }) as R);
  }

  *iterate(...params: P): IterableIterator<R> {
    for (const row of this.statement.iterate(...params)) yield { ...row } as R;
  }
}
