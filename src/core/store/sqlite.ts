/**
 * The SQLite driver behind the store: one small interface, two implementations, chosen once per
 * process (docs/store.md, "Which SQLite runs where"):
 * - Node's built-in `node:sqlite` wherever Node has it (Node 24): nothing to compile or install;
 * - `better-sqlite3` (an optional dependency, a native addon) on Node 20, which has no built-in
 *   SQLite. It is never loaded where `node:sqlite` exists: its 12.x addon aborts Node 24.19 and
 *   later when V8 collects a statement (`Assertion failed: (env) != nullptr`), and 13.x, which
 *   fixes that, crashes on Node 20.
 * Both run the same SQL with the same results: statements bind positional values or an object of
 * named ones (`@name`), return plain row objects and `{ changes, lastInsertRowid }` as numbers,
 * and `transaction()` is the same code on both (BEGIN/COMMIT, a savepoint when nested).
 */
import { createRequire } from 'node:module';
import { openBetterSqlite3 } from './sqlite-better.js';
import { nodeSqlite, openNodeSqlite, type NodeSqliteModule } from './sqlite-node.js';

export type DriverName = 'node:sqlite' | 'better-sqlite3';

export interface RunResult {
  changes: number;
  lastInsertRowid: number;
}

/** A prepared statement; `P` types its parameters, `R` its rows. */
export interface Statement<P extends unknown[] = unknown[], R = unknown> {
  run(...params: P): RunResult;
  get(...params: P): R | undefined;
  all(...params: P): R[];
  iterate(...params: P): IterableIterator<R>;
}

export interface SqliteDatabase {
  readonly driver: DriverName;
  readonly isOpen: boolean;
  readonly inTransaction: boolean;
  /** Runs one or more statements without results. */
  exec(sql: string): void;
  prepare<P extends unknown[] = unknown[], R = unknown>(sql: string): Statement<P, R>;
  /** Runs `PRAGMA <setting>`; returns the first column of the first row (undefined if none). */
  pragma(setting: string): unknown;
  /**
   * Wraps `fn` in a transaction: BEGIN … COMMIT, or, inside an open transaction, a savepoint.
   * If `fn` throws, what it wrote is rolled back (only its savepoint when nested) and the error
   * rethrown.
   */
  transaction<A extends unknown[], T>(fn: (...args: A) => T): (...args: A) => T;
  close(): void;
}

export interface OpenOptions {
  readonly?: boolean;
  /** How long a statement waits for another connection's lock (`busy_timeout`); default 5 s. */
  busyTimeoutMs?: number;
}

/** The driver of this process, and what a worker thread needs to open the same file with it. */
export interface SqliteDriver {
  readonly name: DriverName;
  open(file: string, options?: OpenOptions): SqliteDatabase;
  /**
   * For a worker thread (eval'd CommonJS): a JavaScript expression that opens `workerData.file`
   * with this driver, giving a connection with `exec(sql)` and `close()`. The worker's
   * `workerData` holds `file` and the entries of `workerData` below.
   */
  readonly workerOpen: string;
  readonly workerData: Record<string, unknown>;
}

/**
 * SQLite cannot be used in this process at all: the optional better-sqlite3 is missing or its
 * addon does not load. The message says what to do, in one line.
 */
export class SqliteUnavailableError extends Error {
  override readonly name = 'SqliteUnavailableError';
}

let chosen: SqliteDriver | undefined;

/** The driver of this process (loaded on first use). Throws SqliteUnavailableError. */
export function sqliteDriver(): SqliteDriver {
  return (chosen ??= chooseDriver());
}

/** Opens (creating when missing, unless read-only) a database file with this process's driver. */
export function openDatabase(file: string, options: OpenOptions = {}): SqliteDatabase {
  return sqliteDriver().open(file, options);
}

function chooseDriver(): SqliteDriver {
  const builtin = nodeSqlite();
  if (builtin) return nodeSqliteDriver(builtin);
  return betterSqlite3Driver();
}

function nodeSqliteDriver(module: NodeSqliteModule): SqliteDriver {
  return {
    name: 'node:sqlite',
    open: (file, options) => openNodeSqlite(module, file, options ?? {}),
    workerOpen: `new (require('node:sqlite').DatabaseSync)(workerData.file, { timeout: 1000 })`,
    workerData: {},
  };
}

function betterSqlite3Driver(): SqliteDriver {
  const require = createRequire(import.meta.url);
  let modulePath: string;
  let Database: unknown;
  try {
    modulePath = require.resolve('better-sqlite3');
    Database = require(modulePath);
    // The addon itself loads with the first database: load it now, so that a broken addon is
    // told apart from a database file that cannot be opened.
    openBetterSqlite3(Database, ':memory:', {}).close();
  } catch (err) {
    throw unavailable(err as NodeJS.ErrnoException);
  }
  return {
    name: 'better-sqlite3',
    open: (file, options) => openBetterSqlite3(Database, file, options ?? {}),
    workerOpen: `new (require(workerData.module))(workerData.file, { fileMustExist: true, timeout: 1000 })`,
    workerData: { module: modulePath },
  };
}

const ADVICE = 'or run Taskdown on Node 24, which has SQLite built in';

function unavailable(err: NodeJS.ErrnoException): SqliteUnavailableError {
  const firstLine = String(err.message).split('\n')[0] as string;
  if (err.code === 'MODULE_NOT_FOUND' && firstLine.includes("'better-sqlite3'")) {
    return new SqliteUnavailableError(
      `Node ${process.versions.node} has no built-in SQLite and the optional package better-sqlite3 ` +
        'is not installed: install it where Taskdown is installed (npm install better-sqlite3; it ' +
        `needs a C++ compiler when no prebuilt binary fits this machine), ${ADVICE}.`,
    );
  }
  return new SqliteUnavailableError(
    `better-sqlite3 is installed but cannot be loaded (${firstLine}): rebuild it where Taskdown is ` +
      `installed (npm rebuild better-sqlite3), ${ADVICE}.`,
  );
}
