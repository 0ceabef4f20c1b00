/**
 * The embedded database in the data dir: one SQLite file (`taskdown.sqlite`, through the
 * driver of sqlite.ts: `node:sqlite`, or better-sqlite3 on Node 20) holding the event journal,
 * the webhooks and their delivery queue and log.
 * docs/store.md describes the tables, the durability rules and the retention.
 *
 * Durability: WAL mode with `synchronous = NORMAL`. A commit returns once its pages are written
 * to the WAL file, without an fsync, so a committed row survives the process being killed
 * (kill -9, a crash): the bytes are in the operating system's page cache and the next open
 * replays the WAL. Only a power loss or an operating-system crash can lose the last commits, and
 * even then the database stays consistent (WAL replay stops at the last complete commit).
 * `FULL` would add an fsync per commit, i.e. per event, a few milliseconds each on ordinary
 * disks, for protection against power loss that the note files themselves do not have either.
 */
import { chmodSync, closeSync, openSync, statSync } from 'node:fs';
import path from 'node:path';
import { silentLogger, type Logger } from '../logger.js';
import { StateFileError } from '../state/json-file.js';
import { BACKSTOP_CHECKPOINT_PAGES, Checkpointer } from './checkpointer.js';
import { GroupCommit, type CommitListener } from './group-commit.js';
import { MIGRATIONS } from './schema.js';
import { ReopenableDatabase } from './reopenable.js';
import { openDatabase, sqliteDriver, type SqliteDatabase } from './sqlite.js';
import { StoreFile } from './store-file.js';

export type { SqliteDatabase } from './sqlite.js';

export const STORE_FILE = 'taskdown.sqlite';

export interface Store {
  readonly db: SqliteDatabase;
  readonly file: string;
  /**
   * Runs `write` in a shared transaction committed in a microtask (group-commit.ts): before the
   * code that caused the write can answer. Every write that a caller may wait for uses this.
   */
  write<T>(write: () => T): T;
  /** Runs `write` in a shared transaction committed by the end of this turn of the event loop. */
  writeSoon<T>(write: () => T): T;
  /** Runs `fn` right before this turn's transaction commits. */
  beforeCommit(fn: () => void): void;
  /** Runs `fn` once this turn's transaction committed, or failed (with the error). */
  afterCommit(fn: CommitListener): void;
  /** How many commits failed since the store opened (their writes are lost: disk full, …). */
  readonly failedCommits: number;
  /**
   * Looks at the path now (it is looked at every second) and writes the open database back to it
   * when the file there is not the open one (store-file.ts). For tests.
   */
  lookAtFile(): Promise<void>;
  /** Commits what is pending, stops the checkpoint worker and closes the database. */
  close(): Promise<void>;
}

/** How often the store's path is looked at (store-file.ts). */
const FILE_LOOK_INTERVAL_MS = 1000;

/**
 * Opens (creating when missing) the store of a data dir and brings its schema up to date.
 * The file and its WAL and shared-memory files are mode 0600: they hold webhook secrets and event
 * payloads (SQLite gives the WAL files the database file's mode).
 * Throws SqliteUnavailableError when this Node has no usable SQLite driver (sqlite.ts), and
 * StateFileError when the file cannot be used.
 */
export function openStore(dataDir: string, log: Logger = silentLogger): Store {
  const file = path.join(dataDir, STORE_FILE);
  const driver = sqliteDriver();
  refuseOrphanedWal(file);
  closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
  const db = new ReopenableDatabase(connect(file));
  log.debug({ file, driver: driver.name }, 'store opened');
  const storeFile = new StoreFile(file);
  const newCheckpointer = () =>
    new Checkpointer(
      db,
      file,
      driver,
      (message) => log.warn({ file, error: message }, 'store checkpoint failed; the next one will try again'),
      undefined,
      () => storeFile.lookNow() === 'same',
    );
  let checkpointer = newCheckpointer();
  let failedCommits = 0;
  const group = new GroupCommit(db, (err) => {
    failedCommits += 1;
    log.error({ err, file }, 'store commit failed; its writes are lost');
  });

  let closed = false;
  let looking: Promise<void> | undefined;
  let lastFailure: string | undefined;
  /** Writes the open database back to a path that lost it, and goes on with the new file. */
  const writeBack = async (): Promise<void> => {
    // The worker's connection must be closed before the old file's WAL is: the last connection
    // to close removes the WAL at the path, which would be the new file's by then.
    await checkpointer.stop();
    if (closed) return;
    try {
      group.commit();
      const live = db.connection;
      const done = storeFile.writeBack(live, new Date());
      // Installed before the old connection closes: a failure until here leaves it working.
      storeFile.install(done);
      live.close();
      if (done.movedTo) {
        log.error(
          { file, movedTo: done.movedTo },
          'the store file was replaced by another while Taskdown ran: that file was moved aside and what Taskdown held was written back (stop Taskdown before replacing its database)',
        );
      } else {
        log.warn(
          { file },
          'the store file was removed while Taskdown ran: what Taskdown held was written back to it',
        );
      }
    } catch (err) {
      failed(err, 'the store file is gone and could not be written back; trying again');
      if (db.isOpen) checkpointer = newCheckpointer();
      return;
    }
    reconnect();
  };
  /**
   * A connection to the written-back file; while it cannot be opened (a full disk has no room
   * for its WAL), writes throw, as they do on a full disk (their callers count what is lost), and
   * each look tries again.
   */
  const reconnect = (): void => {
    try {
      db.replace(connect(file));
    } catch (err) {
      failed(err, 'the store file was written back but cannot be opened; trying again');
      return;
    }
    storeFile.lookNow();
    lastFailure = undefined;
    checkpointer = newCheckpointer();
  };
  const failed = (err: unknown, what: string): void => {
    const message = (err as Error).message;
    if (message !== lastFailure) log.error({ file, error: message }, what);
    lastFailure = message;
  };
  const look = (): Promise<void> =>
    (looking ??= storeFile
      .look()
      .then((state) => {
        if (closed) return;
        if (!db.isOpen) {
          reconnect();
        } else if (state !== 'same') {
          return writeBack();
        }
      })
      .finally(() => (looking = undefined)));
  const lookTimer = setInterval(() => void look(), FILE_LOOK_INTERVAL_MS);
  lookTimer.unref();

  return {
    db,
    file,
    get failedCommits() {
      return failedCommits;
    },
    write: (write) => group.write(write),
    writeSoon: (write) => group.writeSoon(write),
    beforeCommit: (fn) => group.beforeCommit(fn),
    afterCommit: (fn) => group.afterCommit(fn),
    lookAtFile: look,
    async close() {
      closed = true;
      clearInterval(lookTimer);
      await looking;
      group.commit();
      await checkpointer.stop();
      if (db.isOpen) db.close();
    },
  };
}

/** Bytes of a WAL file's header: a longer one holds commits. */
const WAL_HEADER_BYTES = 32;

/**
 * Refuses to start on a missing (or empty) database file beside a WAL that holds commits: the
 * file was removed while Taskdown was stopped, after a kill left its last commits in the WAL.
 * SQLite would start a new, empty database and drop that WAL, losing the webhooks and pending
 * deliveries without a word; a normal start never leaves a WAL beside an empty file.
 */
function refuseOrphanedWal(file: string): void {
  const main = statSync(file, { throwIfNoEntry: false });
  const wal = statSync(`${file}-wal`, { throwIfNoEntry: false });
  if ((main === undefined || main.size === 0) && wal !== undefined && wal.size > WAL_HEADER_BYTES) {
    throw new StateFileError(
      file,
      `it is ${main === undefined ? 'missing' : 'empty'} while its WAL file (${file}-wal, ${wal.size} bytes) holds part of it`,
      'Put the database file back beside it, or move the WAL file away to start with an empty store.',
    );
  }
}

/** Opens `file` with the store's settings and brings its schema up to date. */
function connect(file: string): SqliteDatabase {
  let db: SqliteDatabase | undefined;
  try {
    db = openDatabase(file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    // Checkpoints run on a worker thread (checkpointer.ts); this is only the backstop.
    db.pragma(`wal_autocheckpoint = ${BACKSTOP_CHECKPOINT_PAGES}`);
    // Another process holding the write lock for a moment (an sqlite3 shell, a backup) makes
    // writes wait instead of failing.
    db.pragma('busy_timeout = 5000');
    migrate(db, file);
    return db;
  } catch (err) {
    if (db?.isOpen) db.close();
    throw openFailure(file, err);
  }
}

/**
 * Why the store cannot be opened, with what to do: "Fix or move the file" would send the user
 * to the wrong place when another program holds the file's lock. (A full disk is recognised by
 * the start's own message, cli/start-error.ts, from the free space of the data dir's disk.)
 */
export function openFailure(file: string, err: unknown): StateFileError {
  if (err instanceof StateFileError) return err;
  const e = err as { message: string; code?: string; errcode?: number };
  // better-sqlite3 names the code, node:sqlite gives SQLite's number (5: SQLITE_BUSY).
  if (e.code === 'SQLITE_BUSY' || e.errcode === 5) {
    return new StateFileError(
      file,
      'another program has held a lock on it for 5 s',
      'Close the program using it (an sqlite3 shell, a backup), then start again.',
    );
  }
  return new StateFileError(file, e.message);
}

/** Applies the migrations the file has not seen yet, each in its own transaction. */
function migrate(db: SqliteDatabase, file: string): void {
  const version = db.pragma('user_version') as number;
  if (version > MIGRATIONS.length) {
    throw new StateFileError(file, `it was written by a newer Taskdown (schema ${version})`);
  }
  for (let v = version; v < MIGRATIONS.length; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v] as string);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}
