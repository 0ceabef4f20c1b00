/**
 * The store's file must stay the file the store has open. When `taskdown.sqlite` is removed
 * while Taskdown runs (a clean-up script, `rm` in the wrong folder, the whole data dir deleted),
 * SQLite goes on writing to the removed file, whose data is gone once the process ends: every
 * webhook, pending delivery and event would be lost at the next start without a word. When it is
 * replaced by another file (a backup restored into a running server), the same happens, and the
 * next start opens the other file beside a WAL that belongs to the removed one.
 *
 * So the path is looked at every second. When the file there is not the open one, what the open
 * connection holds is written back to the path (`VACUUM INTO` a temporary file, renamed over) and
 * the store goes on with a connection to it (database.ts, reopenable.ts). A replacement is kept
 * beside it as `taskdown.sqlite.replaced-<time>` (with its WAL when it brought one), never
 * deleted. docs/store.md says what the user sees.
 */
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
  type Stats,
} from 'node:fs';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { SqliteDatabase } from './sqlite.js';

/** What the store's path holds, against the file the store has open. */
export type StoreFileState = 'same' | 'missing' | 'replaced';

/** A file's identity while it exists: its number on its device. */
interface Identity {
  dev: number;
  ino: number;
}

const identityOf = (stats: Stats): Identity => ({ dev: stats.dev, ino: stats.ino });
const sameFile = (a: Identity | undefined, b: Identity | undefined): boolean =>
  a !== undefined && b !== undefined && a.dev === b.dev && a.ino === b.ino;

export class StoreFile {
  private opened: Identity;
  /** The WAL file of the open connection, as last seen at the path. */
  private wal: Identity | undefined;

  /** `file` is the path of the database the store just opened. */
  constructor(readonly file: string) {
    this.opened = identityOf(statSync(file));
    this.lookNow();
  }

  /** One look at the path, without blocking the event loop on a slow disk. */
  async look(): Promise<StoreFileState> {
    const [file, wal] = await Promise.all([statOf(this.file), statOf(`${this.file}-wal`)]);
    return this.stateOf(file, wal);
  }

  /**
   * The same look, synchronously: for the checkpointer, before it opens a second connection by
   * path (which must not open another file than the store's).
   */
  lookNow(): StoreFileState {
    return this.stateOf(statOfNow(this.file), statOfNow(`${this.file}-wal`));
  }

  private stateOf(file: Seen, wal: Seen): StoreFileState {
    // A path that cannot be looked at (a data dir made unreadable) tells nothing.
    if (file === 'unknown') return 'same';
    if (file === undefined) return 'missing';
    if (sameFile(file, this.opened)) {
      if (wal !== 'unknown' && wal !== undefined) this.wal = identityOf(wal);
      return 'same';
    }
    // An empty file is no database: one that a connection opened on the missing path created.
    return file.size === 0 ? 'missing' : 'replaced';
  }

  /**
   * Writes what `live` holds to a new file beside the path and, when the path holds another
   * database, moves it (and its WAL when it is not the open one's) aside. `live` must be outside
   * any transaction. The caller then calls `install`, and closes `live`, which removes its WAL
   * files at the path.
   */
  writeBack(live: SqliteDatabase, now: Date): WriteBack {
    mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const temp = `${this.file}.restore-${process.pid}`;
    rmSync(temp, { force: true });
    // Created first so that it has the store's mode; VACUUM INTO accepts an empty file.
    closeSync(openSync(temp, 'wx', 0o600));
    try {
      live.exec(`VACUUM INTO '${temp.replaceAll("'", "''")}'`);
    } catch (err) {
      rmSync(temp, { force: true });
      throw err;
    }
    // Looked at again: the path may have changed since the look that found it gone.
    const state = this.lookNow();
    let movedTo: string | undefined;
    if (state === 'replaced') {
      movedTo = `${this.file}.replaced-${now.toISOString().replaceAll(':', '-')}`;
      renameSync(this.file, movedTo);
      const theirs = statOfNow(`${this.file}-wal`);
      if (theirs !== undefined && theirs !== 'unknown' && !sameFile(identityOf(theirs), this.wal)) {
        renameSync(`${this.file}-wal`, `${movedTo}-wal`);
        if (existsSync(`${this.file}-shm`)) renameSync(`${this.file}-shm`, `${movedTo}-shm`);
      }
    } else if (state === 'missing') {
      rmSync(this.file, { force: true });
    }
    return { temp, movedTo };
  }

  /** Puts the written-back file at the path, for the store to open (removed when that fails). */
  install(writeBack: WriteBack): void {
    try {
      renameSync(writeBack.temp, this.file);
    } catch (err) {
      rmSync(writeBack.temp, { force: true });
      throw err;
    }
    this.opened = identityOf(statSync(this.file));
    this.wal = undefined;
  }
}

export interface WriteBack {
  temp: string;
  /** Where the database found at the path went, when there was one. */
  movedTo: string | undefined;
}

/** A path's stats; undefined when nothing is there, 'unknown' when it cannot be looked at. */
type Seen = Stats | undefined | 'unknown';

const GONE = new Set(['ENOENT', 'ENOTDIR']);

function statOfNow(file: string): Seen {
  try {
    return statSync(file);
  } catch (err) {
    return GONE.has((err as NodeJS.ErrnoException).code ?? '') ? undefined : 'unknown';
  }
}

async function statOf(file: string): Promise<Seen> {
  try {
    return await fs.stat(file);
  } catch (err) {
    return GONE.has((err as NodeJS.ErrnoException).code ?? '') ? undefined : 'unknown';
  }
}
