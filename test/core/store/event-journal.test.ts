/**
 * The event journal on a real SQLite file: order, envelopes, replay, the in-transaction writers,
 * retention, and that a commit survives the process being killed.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { EventBus } from '../../../src/core/events/bus.js';
import { silentLogger } from '../../../src/core/logger.js';
import { openStore, STORE_FILE, type Store } from '../../../src/core/store/database.js';
import { EventJournal, type JournalEntry } from '../../../src/core/store/event-journal.js';
import { StoreMaintenance } from '../../../src/core/store/maintenance.js';
import { openDatabase } from '../../../src/core/store/sqlite.js';
import { ManualClock } from '../../helpers/manual-clock.js';
import { tempDir } from '../../helpers/temp.js';

const vault = { name: 'vault', path: '/v' };
const T0 = Date.UTC(2026, 0, 15, 9, 0, 0);
const DAY = 86_400_000;

describe('event journal', () => {
  let dir: { dir: string; cleanup: () => Promise<void> };
  let store: Store;
  let journal: EventJournal;
  beforeEach(async () => {
    dir = await tempDir('taskdown-journal-');
    store = openStore(dir.dir);
    journal = new EventJournal(store, vault, silentLogger);
  });
  afterEach(async () => {
    await store.close();
    await dir.cleanup();
  });

  it('records events in order with the webhook envelope as compact JSON', () => {
    const a = journal.append('task.created', { task: { title: 'A' } }, T0);
    const b = journal.append('webhook.ping', { webhookId: 'wh_1' }, T0 + 5);
    assert.equal(b.seq, a.seq + 1);
    assert.equal(
      a.envelope,
      '{"event":"task.created","timestamp":"2026-01-15T09:00:00.000Z","vault":{"name":"vault","path":"/v"},' +
        '"data":{"task":{"title":"A"}}}',
    );
    assert.deepEqual(journal.eventsSince(0), [a, b]);
    assert.equal(journal.latestSeq(), b.seq);
    assert.equal(journal.completeFrom(), a.seq);
  });

  it('replays after a sequence number, by name and in pages', () => {
    const entries = ['task.created', 'task.updated', 'task.created', 'time.started', 'task.created'].map(
      (name, i) => journal.append(name as never, { i }, T0 + i),
    );
    assert.deepEqual(
      journal.eventsSince(entries[1]!.seq).map((e) => e.seq),
      entries.slice(2).map((e) => e.seq),
    );
    assert.deepEqual(
      journal.eventsSince(0, { names: ['task.created'] }).map((e) => JSON.parse(e.envelope).data.i),
      [0, 2, 4],
    );
    const page = journal.eventsSince(0, { limit: 2 });
    assert.deepEqual(
      page.map((e) => e.seq),
      [entries[0]!.seq, entries[1]!.seq],
    );
    assert.equal(journal.eventsSince(page[1]!.seq, { limit: 2 })[0]!.seq, entries[2]!.seq);
  });

  it('journals every event of the bus and tells subscribers once committed, a burst in one commit', async () => {
    const bus = new EventBus(new ManualClock(T0), silentLogger);
    journal.attach(bus);
    const other = openDatabase(path.join(dir.dir, STORE_FILE), { readonly: true });
    const committed = () => (other.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n;
    const heard: Array<{ entry: JournalEntry; committed: number }> = [];
    journal.subscribe((entry) => heard.push({ entry, committed: committed() }));
    try {
      bus.emit('task.deleted', { task: { title: 'X' } as never });
      bus.emit('task.created', { task: { title: 'Y' } as never });
      assert.equal(heard.length, 0, 'not before the commit');
      await Promise.resolve();
      assert.deepEqual(
        heard.map((h) => [h.entry.name, h.committed]),
        [
          ['task.deleted', 2],
          ['task.created', 2],
        ],
        'both committed together, visible to another connection, before the listeners hear of them',
      );
    } finally {
      other.close();
    }
  });

  it('commits what a writer derives from an event together with it, or neither when the writer fails', async () => {
    store.db.exec('CREATE TABLE derived (seq INTEGER, note TEXT)');
    const add = store.db.prepare('INSERT INTO derived VALUES (?, ?)');
    let fail = false;
    journal.onAppend((entry) => {
      add.run(entry.seq, 'derived');
      if (fail) throw new Error('boom');
    });
    const kept = journal.append('task.created', { n: 1 }, T0);
    fail = true;
    assert.throws(() => journal.append('task.created', { n: 2 }, T0), /boom/);
    fail = false;
    const next = journal.append('task.created', { n: 3 }, T0);
    await Promise.resolve();
    assert.deepEqual(
      journal.eventsSince(0).map((e) => JSON.parse(e.envelope).data.n),
      [1, 3],
    );
    assert.deepEqual(store.db.prepare('SELECT seq FROM derived ORDER BY seq').all(), [
      { seq: kept.seq },
      { seq: next.seq },
    ]);
  });

  it('prunes by age and by count, but never the newest entry nor what is still referred to', () => {
    for (let i = 0; i < 10; i++) journal.append('task.created', { i }, T0 + i * DAY);
    const now = T0 + 9 * DAY;
    // 7 days: entries of days 0 and 1 go (day 2 is exactly 7 days old and stays).
    assert.equal(journal.prune({ maxAgeMs: 7 * DAY, maxRecords: 100 }, now), 2);
    assert.equal(journal.completeFrom(), 3);
    // 5 records at most (3, 4 and 5 go), but entry 4 is still referred to: only it stays, and
    // the journal is complete from 6 on.
    assert.equal(journal.prune({ maxAgeMs: 7 * DAY, maxRecords: 5 }, now, [4]), 2);
    assert.deepEqual(
      journal.eventsSince(0).map((e) => e.seq),
      [4, 6, 7, 8, 9, 10],
    );
    assert.equal(journal.completeFrom(), 6);
    assert.equal(journal.prune({ maxAgeMs: 7 * DAY, maxRecords: 5 }, now), 1);
    assert.deepEqual(
      journal.eventsSince(0).map((e) => e.seq),
      [6, 7, 8, 9, 10],
    );
    // Everything is old: only the newest stays, so the next entry does not reuse a number.
    assert.equal(journal.prune({ maxAgeMs: DAY, maxRecords: 100 }, now + 30 * DAY), 4);
    assert.deepEqual(
      journal.eventsSince(0).map((e) => e.seq),
      [10],
    );
    assert.equal(journal.append('task.created', {}, now).seq, 11);
  });

  it('keeps its entries across a reopen, in a file only the owner can read', async () => {
    journal.append('task.created', { title: 'kept' }, T0);
    await store.close();
    store = openStore(dir.dir);
    journal = new EventJournal(store, vault, silentLogger);
    assert.equal(JSON.parse(journal.eventsSince(0)[0]!.envelope).data.title, 'kept');
    assert.equal(statSync(path.join(dir.dir, STORE_FILE)).mode & 0o777, 0o600);
    assert.equal(statSync(path.join(dir.dir, `${STORE_FILE}-wal`)).mode & 0o777, 0o600);
  });

  it('keeps a committed entry when the process is killed right after the append (kill -9)', async () => {
    await store.close();
    const script = `
      import { openStore } from ${JSON.stringify(path.resolve('src/core/store/database.ts'))};
      import { EventJournal } from ${JSON.stringify(path.resolve('src/core/store/event-journal.ts'))};
      const store = openStore(${JSON.stringify(dir.dir)});
      const log = { debug() {}, info() {}, warn() {}, error() {} };
      const journal = new EventJournal(store, { name: 'v', path: '/v' }, log);
      for (let i = 0; i < 50; i++) journal.append('task.created', { i }, Date.now());
      // The operation that appended goes on (and could answer) only after the commit.
      await Promise.resolve();
      process.kill(process.pid, 'SIGKILL');
    `;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    assert.equal(child.signal, 'SIGKILL', child.stderr);
    store = openStore(dir.dir);
    journal = new EventJournal(store, vault, silentLogger);
    assert.equal(journal.eventsSince(0, { limit: 100 }).length, 50);
  });
});

describe('store retention runs', () => {
  it('prunes a minute after the start and then every minute, and early after a burst', async () => {
    const dir = await tempDir('taskdown-maint-');
    const store = openStore(dir.dir);
    const clock = new ManualClock(T0);
    const journal = new EventJournal(store, vault, silentLogger);
    const runs: number[] = [];
    const maintenance = new StoreMaintenance({
      clock,
      log: silentLogger,
      journal,
      steps: [(now) => runs.push(now)],
    });
    try {
      await clock.advance(59_999);
      assert.deepEqual(runs, []);
      await clock.advance(1);
      assert.deepEqual(runs, [T0 + 60_000]);
      for (let i = 0; i < 1000; i++) journal.append('task.created', {}, clock.now());
      await clock.advance(1000);
      assert.deepEqual(runs, [T0 + 60_000, T0 + 61_000], 'a burst of 1,000 entries runs it within a second');
      await clock.advance(59_999);
      assert.equal(runs.length, 2);
      await clock.advance(1);
      assert.equal(runs.length, 3);
    } finally {
      maintenance.stop();
      await store.close();
      await dir.cleanup();
    }
  });
});
