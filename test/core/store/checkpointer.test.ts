/**
 * The checkpoint worker on a real SQLite file: no thread for a few rows, a thread (and checkpoints
 * that empty the WAL into the database file) once enough rows are written, and the thread stopped
 * again when the writes stop. Timing is shortened; the rules are the production ones.
 */
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Checkpointer } from '../../../src/core/store/checkpointer.js';
import { openDatabase, sqliteDriver, type SqliteDatabase } from '../../../src/core/store/sqlite.js';
import { tempDir } from '../../helpers/temp.js';

const TIMING = { intervalMs: 20, startChanges: 100, idleTicks: 5 };

/** Polls `check` every 10 ms for up to 5 s. */
async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (check()) return;
    await sleep(10);
  }
  assert.fail(`timed out waiting until ${what}`);
}

describe('checkpointer', () => {
  let dir: { dir: string; cleanup: () => Promise<void> };
  let file: string;
  let db: SqliteDatabase;
  let checkpointer: Checkpointer;
  const errors: string[] = [];

  beforeEach(async () => {
    dir = await tempDir('taskdown-checkpoint-');
    file = path.join(dir.dir, 'store.sqlite');
    db = openDatabase(file);
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0');
    db.exec('CREATE TABLE rows (n INTEGER, text TEXT)');
    checkpointer = new Checkpointer(db, file, sqliteDriver(), (m) => errors.push(m), TIMING);
  });
  afterEach(async () => {
    await checkpointer.stop();
    db.close();
    await dir.cleanup();
    assert.deepEqual(errors.splice(0), []);
  });

  const insert = (n: number): void => {
    const statement = db.prepare('INSERT INTO rows VALUES (?, ?)');
    db.transaction(() => {
      for (let i = 0; i < n; i++) statement.run(i, 'x'.repeat(500));
    })();
  };
  const databaseBytes = (): number => statSync(file).size;

  it('starts no thread for a few rows', async () => {
    insert(10);
    await sleep(TIMING.intervalMs * 6);
    assert.equal(checkpointer.running, false);
    insert(10);
    await sleep(TIMING.intervalMs * 6);
    assert.equal(checkpointer.running, false);
  });

  it('checkpoints on a thread once enough rows were written, and stops the thread when idle', async () => {
    const before = databaseBytes();
    insert(40);
    await sleep(TIMING.intervalMs * 3);
    insert(80); // 120 rows since the last checkpoint: over the threshold together
    await until(() => checkpointer.running, 'the worker starts');
    // The rows reached the database file itself (the WAL was checkpointed).
    await until(() => databaseBytes() > before + 100 * 500, 'the database file holds the rows');
    await until(() => !checkpointer.running, 'the idle worker stops');
  });

  it('keeps an active thread while writes go on', async () => {
    insert(150);
    await until(() => checkpointer.running, 'the worker starts');
    for (let i = 0; i < 12; i++) {
      insert(1);
      await sleep(TIMING.intervalMs);
      assert.equal(checkpointer.running, true, `stopped during writes (tick ${i})`);
    }
  });

  it('opens no second connection while the path names another file than the open one', async () => {
    await checkpointer.stop();
    let current = false;
    checkpointer = new Checkpointer(
      db,
      file,
      sqliteDriver(),
      (m) => errors.push(m),
      TIMING,
      () => current,
    );
    insert(150);
    await sleep(TIMING.intervalMs * 6);
    assert.equal(checkpointer.running, false);
    current = true;
    insert(1);
    await until(() => checkpointer.running, 'the worker starts once the path is the file again');
  });
});
