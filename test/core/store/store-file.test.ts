/**
 * The store's file removed or replaced while the store is open: what the open connection holds is
 * written back to the path, the statements prepared before go on working against the new file,
 * and a database found at the path is moved aside, never deleted. Real SQLite files; the periodic
 * look is called directly.
 */
import assert from 'node:assert/strict';
import {
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { Logger } from '../../../src/core/logger.js';
import { openFailure, openStore, STORE_FILE, type Store } from '../../../src/core/store/database.js';
import { openDatabase } from '../../../src/core/store/sqlite.js';
import { tempDir } from '../../helpers/temp.js';

describe('store file removed or replaced while open', () => {
  let dir: { dir: string; cleanup: () => Promise<void> };
  let dataDir: string;
  let file: string;
  let store: Store;
  let logged: Array<{ level: string; msg: string | undefined; obj: object | string }>;

  const log: Logger = {
    debug: () => {},
    info: () => {},
    warn: (obj, msg) => logged.push({ level: 'warn', msg, obj }),
    error: (obj, msg) => logged.push({ level: 'error', msg, obj }),
  };

  beforeEach(async () => {
    dir = await tempDir('taskdown-store-file-');
    dataDir = path.join(dir.dir, 'data');
    file = path.join(dataDir, STORE_FILE);
    logged = [];
    mkdirSync(dataDir, { mode: 0o700 });
    store = openStore(dataDir, log);
  });
  afterEach(async () => {
    await store.close();
    await dir.cleanup();
  });

  /** Appends `n` events through one statement prepared before any removal. */
  const appender = () => {
    const insert = store.db.prepare<[string, number, string]>(
      'INSERT INTO events (name, at, envelope) VALUES (?, ?, ?)',
    );
    return (n: number) =>
      store.write(() => {
        for (let i = 0; i < n; i++) insert.run('task.created', Date.now(), '{}');
      });
  };
  const eventsIn = (at: string): number => {
    const db = openDatabase(at, { readonly: true });
    try {
      return (db.prepare<[], { n: number }>('SELECT count(*) AS n FROM events').get() as { n: number }).n;
    } finally {
      db.close();
    }
  };
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  for (const [what, remove] of [
    ['the file', () => rmSync(file)],
    [
      'the file and its WAL files',
      () => ['', '-wal', '-shm'].forEach((s) => rmSync(file + s, { force: true })),
    ],
    ['the whole data dir', () => rmSync(dataDir, { recursive: true })],
  ] as const) {
    it(`writes everything back when ${what} is removed, and goes on writing to the path`, async () => {
      const append = appender();
      append(30);
      await settle();
      remove();
      append(5); // written while the path has no file: still in the open one
      await settle();

      await store.lookAtFile();

      assert.equal(statSync(file).mode & 0o777, 0o600);
      append(7);
      await settle();
      await store.close();
      assert.equal(eventsIn(file), 42);
      assert.deepEqual(
        logged.map((l) => [l.level, l.msg]),
        [
          [
            'warn',
            'the store file was removed while Taskdown ran: what Taskdown held was written back to it',
          ],
        ],
      );
      store = openStore(dataDir, log);
    });
  }

  it('keeps working on the open database while it cannot be written back, and writes it back later', async () => {
    const append = appender();
    append(30);
    await settle();
    // The data dir gone, and a file where it was: nothing can be written back there.
    rmSync(dataDir, { recursive: true });
    writeFileSync(dataDir, 'not a folder');
    await store.lookAtFile();
    append(5);
    await settle();
    await store.lookAtFile(); // the same failure again: logged once
    assert.deepEqual(
      logged.map((l) => [l.level, l.msg]),
      [['error', 'the store file is gone and could not be written back; trying again']],
    );
    rmSync(dataDir);
    mkdirSync(dataDir, { mode: 0o700 });
    await store.lookAtFile();
    append(7);
    await settle();
    await store.close();
    assert.equal(eventsIn(file), 42, 'the writes made while it could not be written back are kept');
    assert.equal(
      logged.at(-1)?.msg,
      'the store file was removed while Taskdown ran: what Taskdown held was written back to it',
    );
    store = openStore(dataDir, log);
  });

  it('tries again to open the file it wrote back until it can, and writes to it then', async () => {
    const append = appender();
    append(30);
    await settle();
    ['', '-wal', '-shm'].forEach((suffix) => rmSync(file + suffix, { force: true }));
    // A folder where the new file's WAL must go: the file is written back, but cannot be opened.
    mkdirSync(`${file}-wal`);
    await store.lookAtFile();
    // No connection meanwhile: a write throws, as on a full disk (its callers count it lost). The
    // message is the driver's: better-sqlite3 says the connection is not open, node:sqlite that
    // the statement has been finalized.
    assert.throws(() => append(5), /not open|finalized/);
    await store.lookAtFile(); // still cannot: logged once
    assert.deepEqual(
      logged.map((l) => [l.level, l.msg]),
      [
        ['warn', 'the store file was removed while Taskdown ran: what Taskdown held was written back to it'],
        ['error', 'the store file was written back but cannot be opened; trying again'],
      ],
    );
    rmSync(`${file}-wal`, { recursive: true });
    await store.lookAtFile();
    append(7);
    await settle();
    await store.close();
    assert.equal(eventsIn(file), 37, 'the 30 written back and the 7 written after it opened');
    store = openStore(dataDir, log);
  });

  it('moves a database put in its place aside, with the WAL it brought, and writes its own back', async () => {
    const append = appender();
    append(10);
    await settle();
    // Another database with a committed WAL of its own, as a backup of a running store would be.
    const other = path.join(dir.dir, 'backup.sqlite');
    const db = openDatabase(other);
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0');
    db.exec("CREATE TABLE kept (x TEXT); INSERT INTO kept VALUES ('from the backup')");
    for (const suffix of ['', '-wal', '-shm']) {
      // Hard links: the backup's files stay whole while its connection is open.
      rmSync(path.join(dir.dir, `staged${suffix}`), { force: true });
      linkSync(other + suffix, path.join(dir.dir, `staged${suffix}`));
    }
    db.close();
    for (const suffix of ['', '-wal', '-shm'])
      renameSync(path.join(dir.dir, `staged${suffix}`), file + suffix);

    await store.lookAtFile();
    append(1);
    await settle();

    const aside = readdirSync(dataDir).filter((name) => name.startsWith(`${STORE_FILE}.replaced-`));
    assert.deepEqual(aside.map((name) => name.replace(/replaced-.*Z/, 'replaced-T')).sort(), [
      `${STORE_FILE}.replaced-T`,
      `${STORE_FILE}.replaced-T-shm`,
      `${STORE_FILE}.replaced-T-wal`,
    ]);
    await store.close();
    assert.equal(eventsIn(file), 11);
    const kept = openDatabase(
      path.join(dataDir, aside.find((n) => !n.endsWith('-wal') && !n.endsWith('-shm')) as string),
    );
    assert.deepEqual(kept.prepare('SELECT x FROM kept').all(), [{ x: 'from the backup' }]);
    kept.close();
    assert.equal(logged[0]?.level, 'error');
    store = openStore(dataDir, log);
  });

  it('leaves the file alone while it is the open one', async () => {
    appender()(3);
    await settle();
    const before = statSync(file).ino;
    await store.lookAtFile();
    assert.equal(statSync(file).ino, before);
    assert.equal(existsSync(`${file}.restore-${process.pid}`), false);
    assert.deepEqual(logged, []);
  });
});

describe('a store that cannot be opened', () => {
  it('refuses a missing or empty database file beside a WAL that holds commits, naming both', async () => {
    const dir = await tempDir('taskdown-store-orphan-');
    try {
      // A WAL with commits, as a kill leaves it: copied while its connection is open.
      const source = path.join(dir.dir, 'source.sqlite');
      const db = openDatabase(source);
      db.pragma('journal_mode = WAL');
      db.pragma('wal_autocheckpoint = 0');
      db.exec("CREATE TABLE kept (x TEXT); INSERT INTO kept VALUES ('a commit')");
      const dataDir = path.join(dir.dir, 'data');
      mkdirSync(dataDir);
      const file = path.join(dataDir, STORE_FILE);
      copyFileSync(`${source}-wal`, `${file}-wal`);
      db.close();
      const refusal = (what: string) => ({
        name: 'StateFileError',
        message: new RegExp(
          `^State file ${file} is unusable: it is ${what} while its WAL file \\(${file}-wal, \\d+ bytes\\) holds part of it\\. Put the database file back beside it, or move the WAL file away`,
        ),
      });
      assert.throws(() => openStore(dataDir), refusal('missing'));
      writeFileSync(file, '');
      assert.throws(() => openStore(dataDir), refusal('empty'));
      // Moved away as the message says: an empty store.
      rmSync(`${file}-wal`);
      const store = openStore(dataDir);
      await store.close();
    } finally {
      await dir.cleanup();
    }
  });

  it('says another program holds its lock, not that the file must be fixed', async () => {
    const dir = await tempDir('taskdown-store-busy-');
    const file = path.join(dir.dir, STORE_FILE);
    const holder = openDatabase(file);
    const other = openDatabase(file, { busyTimeoutMs: 0 });
    try {
      holder.exec('BEGIN EXCLUSIVE; CREATE TABLE held (x)');
      let busy: unknown;
      try {
        other.exec('CREATE TABLE other (x)');
      } catch (err) {
        busy = err;
      }
      assert.ok(busy, 'the second connection was refused');
      assert.equal(
        openFailure(file, busy).message,
        `State file ${file} is unusable: another program has held a lock on it for 5 s. ` +
          'Close the program using it (an sqlite3 shell, a backup), then start again.',
      );
      assert.match(openFailure(file, new Error('file is not a database')).message, /Fix or move the file/);
    } finally {
      other.close();
      holder.close();
      await dir.cleanup();
    }
  });
});
