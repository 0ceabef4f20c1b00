/**
 * The SQLite driver interface, on the driver this Node uses (node:sqlite where Node has it,
 * better-sqlite3 on Node 20): the suite runs on both Nodes, so both drivers pass the same tests.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { openDatabase, sqliteDriver, type SqliteDatabase } from '../../../src/core/store/sqlite.js';
import { tempDir } from '../../helpers/temp.js';

describe('SQLite driver', () => {
  let dir: { dir: string; cleanup: () => Promise<void> };
  let file: string;
  let db: SqliteDatabase;
  beforeEach(async () => {
    dir = await tempDir('taskdown-sqlite-');
    file = path.join(dir.dir, 'test.sqlite');
    db = openDatabase(file);
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL, n INTEGER)');
  });
  afterEach(async () => {
    if (db.isOpen) db.close();
    await dir.cleanup();
  });

  it("is Node's own SQLite wherever Node has one, better-sqlite3 only where it has none", () => {
    const builtin = process.getBuiltinModule('node:sqlite') !== undefined;
    assert.equal(sqliteDriver().name, builtin ? 'node:sqlite' : 'better-sqlite3');
    assert.equal(db.driver, sqliteDriver().name);
    if (Number(process.versions.node.split('.')[0]) >= 24) assert.equal(db.driver, 'node:sqlite');
  });

  it('binds positional and named values and returns plain rows and numbers', () => {
    const insert = db.prepare<[string, number | null]>('INSERT INTO t (name, n) VALUES (?, ?)');
    assert.deepEqual(insert.run('a', 1), { changes: 1, lastInsertRowid: 1 });
    const named = db.prepare('INSERT INTO t (name, n) VALUES (@name, @n)');
    assert.deepEqual(named.run({ name: 'b', n: null }), { changes: 1, lastInsertRowid: 2 });
    const rows = db.prepare<[], { id: number; name: string; n: number | null }>(
      'SELECT * FROM t ORDER BY id',
    );
    assert.deepEqual(rows.all(), [
      { id: 1, name: 'a', n: 1 },
      { id: 2, name: 'b', n: null },
    ]);
    assert.equal(Object.getPrototypeOf(rows.get()), Object.prototype);
    assert.deepEqual(
      [...rows.iterate()].map((row) => row.name),
      ['a', 'b'],
    );
    assert.equal(db.prepare('SELECT * FROM t WHERE id = ?').get(99), undefined);
    assert.equal(db.prepare('UPDATE t SET n = 5').run().changes, 2);
  });

  it('reads pragmas as their first value', () => {
    assert.equal(db.pragma('journal_mode = WAL'), 'wal');
    db.pragma('user_version = 7');
    assert.equal(db.pragma('user_version'), 7);
    assert.equal(db.pragma('synchronous = NORMAL'), undefined);
  });

  it('commits a transaction, or rolls back all of it when its function throws', () => {
    const insert = db.prepare<[string]>('INSERT INTO t (name) VALUES (?)');
    const count = () => (db.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n;
    const add = db.transaction((...names: string[]) => {
      assert.equal(db.inTransaction, true);
      for (const name of names) insert.run(name);
      return names.length;
    });
    assert.equal(add('a', 'b'), 2);
    assert.equal(db.inTransaction, false);
    const failing = db.transaction(() => {
      insert.run('c');
      throw new Error('boom');
    });
    assert.throws(() => failing(), /boom/);
    assert.equal(db.inTransaction, false);
    assert.equal(count(), 2);
  });

  it('nests transactions as savepoints: a failing inner one undoes only itself', () => {
    const insert = db.prepare<[string]>('INSERT INTO t (name) VALUES (?)');
    const inner = db.transaction((name: string) => {
      insert.run(name);
      if (name === 'bad') throw new Error('inner failed');
    });
    db.transaction(() => {
      insert.run('outer');
      inner('good');
      assert.throws(() => inner('bad'), /inner failed/);
      assert.equal(db.inTransaction, true, 'the outer transaction goes on');
    })();
    assert.deepEqual(
      db
        .prepare<[], { name: string }>('SELECT name FROM t ORDER BY id')
        .all()
        .map((row) => row.name),
      ['outer', 'good'],
    );
  });

  it('opens a file read-only for a second connection, which sees only committed rows', () => {
    db.pragma('journal_mode = WAL');
    db.prepare('INSERT INTO t (name) VALUES (?)').run('committed');
    const reader = openDatabase(file, { readonly: true });
    try {
      db.exec('BEGIN');
      db.prepare('INSERT INTO t (name) VALUES (?)').run('open');
      assert.deepEqual(reader.prepare('SELECT name FROM t').all(), [{ name: 'committed' }]);
      db.exec('COMMIT');
      assert.deepEqual(reader.prepare('SELECT count(*) AS n FROM t').get(), { n: 2 });
      assert.throws(() => reader.exec("INSERT INTO t (name) VALUES ('x')"), /readonly|read-only/i);
    } finally {
      reader.close();
    }
    db.close();
    assert.equal(db.isOpen, false);
  });
});
