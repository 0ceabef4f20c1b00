/** The persisted index: restarts reuse unchanged entries and never serve stale ones. */
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { readFile, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { silentLogger } from '../../../src/core/logger.js';
import { IndexSnapshot } from '../../../src/core/vault/index-snapshot.js';
import { VaultStore } from '../../../src/core/vault/vault-store.js';
import { tempDir, writeFiles } from '../../helpers/temp.js';

/**
 * Waits until files written so far count as settled for the snapshot: their status-change time
 * (which no program can set back) must be more than 2 s older than the scan.
 */
const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 2_100));

describe('index snapshot', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  const file = (): string => path.join(dir, '.data', 'index-snapshot.json');
  let parsed: string[] = [];
  let key = 'k1';

  const open = async (): Promise<VaultStore<{ text: string; n: number }>> => {
    parsed = [];
    const store = new VaultStore<{ text: string; n: number }>({
      policy: { root: dir, dataDir: path.join(dir, '.data') },
      log: silentLogger,
      parse: (rel, text) => {
        parsed.push(rel);
        if (text.startsWith('broken')) throw new Error('broken');
        return text.startsWith('skip') ? null : { text, n: text.startsWith('nan') ? NaN : 1 };
      },
      snapshot: { file: file(), key: () => key },
    });
    await store.start();
    return store;
  };

  const age = async (rel: string, secondsAgo = 60): Promise<void> => {
    const t = new Date(Date.now() - secondsAgo * 1000);
    await utimes(path.join(dir, rel), t, t);
  };

  before(async () => {
    ({ dir, cleanup } = await tempDir('index-snapshot-'));
    await writeFiles(dir, {
      'A.md': 'aaa',
      'B.md': 'bbb',
      'C.md': 'skip me',
      'D.md': 'broken',
      'E.md': 'nan value',
    });
    for (const rel of ['A.md', 'B.md', 'C.md', 'D.md', 'E.md']) await age(rel);
    await settle();
    await writeFiles(dir, { 'Fresh.md': 'fresh' });
    const store = await open();
    // Written about 2 s after the scan; polled, so a loaded machine only makes this slower.
    for (let waited = 0; !existsSync(file()) && waited < 20_000; waited += 50) {
      await new Promise((r) => setTimeout(r, 50));
    }
    await store.stop();
    assert.ok(existsSync(file()), 'snapshot written after the scan');
  });
  after(() => cleanup());

  it('restarts without re-parsing settled, unchanged notes', async () => {
    const store = await open();
    await store.stop();
    // Broken notes, values JSON cannot carry (NaN) and notes modified just before the scan are re-read.
    assert.deepEqual(parsed.sort(), ['D.md', 'E.md', 'Fresh.md']);
    assert.equal(store.get('A.md')?.parsed.text, 'aaa');
    assert.equal(store.get('C.md'), undefined);
    assert.ok(Number.isNaN(store.get('E.md')?.parsed.n));
  });

  it('re-reads a note whose mtime or size changed, even with the same length', async () => {
    await writeFile(path.join(dir, 'A.md'), 'AAA');
    await age('A.md', 30);
    await writeFile(path.join(dir, 'B.md'), 'bbbb');
    await utimes(path.join(dir, 'B.md'), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    const store = await open();
    await store.stop();
    assert.equal(store.get('A.md')?.parsed.text, 'AAA');
    assert.equal(store.get('B.md')?.parsed.text, 'bbbb');
    assert.ok(parsed.includes('A.md') && parsed.includes('B.md'));
  });

  it('does not save what the scan read of a note that changed before the snapshot was written', async () => {
    let store = await open();
    // Same size, mtime set back: only the index (updated by the watcher) knows it changed.
    await writeFile(path.join(dir, 'B.md'), 'BBBB');
    await age('B.md', 120);
    await new Promise((r) => setTimeout(r, 2_300));
    await store.stop();
    store = await open();
    await store.stop();
    assert.equal(store.get('B.md')?.parsed.text, 'BBBB');
  });

  it('ignores a snapshot written under another key, and a corrupt one', async () => {
    key = 'k2';
    let store = await open();
    await store.stop();
    assert.ok(parsed.includes('C.md'));
    await writeFile(file(), '{"format":3,"key":"k2","rows":[\n[\n');
    store = await open();
    await store.stop();
    assert.equal(store.get('A.md')?.parsed.text, 'AAA');
    assert.ok(parsed.includes('C.md'));
  });

  it('loads nothing from a missing file', () => {
    assert.equal(new IndexSnapshot(path.join(dir, 'nope.json')).load('k').length, 0);
  });
});

describe('index snapshot: file metadata', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  const file = (): string => path.join(dir, '.data', 'index-snapshot.json');
  let parsed: string[] = [];
  /** A whole-millisecond time in the past, which utimes sets exactly. */
  const stamp = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);

  const open = async (): Promise<VaultStore<string>> => {
    parsed = [];
    const store = new VaultStore<string>({
      policy: { root: dir, dataDir: path.join(dir, '.data') },
      log: silentLogger,
      parse: (rel, text) => {
        parsed.push(rel);
        return text;
      },
      snapshot: { file: file(), key: () => 'k' },
    });
    await store.start();
    return store;
  };

  before(async () => {
    ({ dir, cleanup } = await tempDir('index-snapshot-meta-'));
    await writeFiles(dir, { 'A.md': 'aaa', 'B.md': 'bbb', 'Sub/C.md': 'ccc', 'A b.md': 'ab' });
    for (const rel of ['A.md', 'B.md', 'Sub/C.md', 'A b.md']) await utimes(path.join(dir, rel), stamp, stamp);
    await settle();
    const store = await open();
    for (let waited = 0; !existsSync(file()) && waited < 20_000; waited += 50) {
      await new Promise((r) => setTimeout(r, 50));
    }
    await store.stop();
    assert.ok(existsSync(file()), 'snapshot written after the scan');
  });
  after(() => cleanup());

  it('lists the notes in path order after a first start and after a restart', async () => {
    const expected = ['A b.md', 'A.md', 'B.md', 'Sub/C.md'];
    const store = await open();
    await store.stop();
    assert.deepEqual(parsed, []);
    assert.deepEqual(
      store.all().map((r) => r.rel),
      expected,
    );
  });

  it('leaves the snapshot file alone when a restart reused all of it', async () => {
    const before = (await stat(file())).mtimeMs;
    const store = await open();
    // Longer than the delay before a snapshot is written (a loaded machine can only hide a write).
    await new Promise((r) => setTimeout(r, 3_000));
    await store.stop();
    assert.deepEqual(parsed, []);
    assert.equal((await stat(file())).mtimeMs, before);
  });

  it('re-reads a note rewritten with the same size and its modification time set back', async () => {
    // What `cp -p`, `touch -r` or an archive tool does: new content, same size, same mtime. Only
    // the status-change time (and, for a replaced file, the inode) tells.
    await writeFile(path.join(dir, 'A.md'), 'zzz');
    await utimes(path.join(dir, 'A.md'), stamp, stamp);
    const store = await open();
    await store.stop();
    assert.equal(store.get('A.md')?.parsed, 'zzz');
    assert.deepEqual(parsed, ['A.md']);
  });

  it('is written as ASCII and reads back every character, and still reads lines written as UTF-8', async () => {
    const snapshot = new IndexSnapshot<{ title: string }>(path.join(dir, 'unicode.json'));
    const title = 'Café ✓ 日本語 🎉 \u2028 end';
    const entry = { rel: 'Notes/Ünïcode 🎉.md', size: 1, mtimeMs: 2.5, ctimeMs: 3.5, ino: 4, hash: 'h', parsed: { title } };
    await snapshot.save('clé ✓', [entry]);
    const bytes = await readFile(path.join(dir, 'unicode.json'));
    assert.ok(bytes.every((byte) => byte < 0x80), 'ASCII only');
    assert.deepEqual(snapshot.load('clé ✓'), [entry]);
    // Edited by hand: the characters themselves, in UTF-8.
    const row = JSON.stringify([entry.rel, 1, 2.5, 3.5, 4, 'h', { title }]);
    await writeFile(path.join(dir, 'unicode.json'), `{"format":3,"key":"clé ✓","rows":[\n${row}\n]}\n`);
    assert.deepEqual(snapshot.load('clé ✓'), [entry]);
  });

  it('is one JSON document with a row per line, and reads rows longer than its read buffer', async () => {
    const snapshot = new IndexSnapshot<{ title: string }>(path.join(dir, 'long.json'));
    // Two rows longer than one read of the file (256 KB) around a short one: saved (escaped), about
    // 0.7 and 1.7 MB; edited by hand as UTF-8, about 270 and 630 KB, with characters of two, three
    // and four bytes across the reads' boundaries.
    const entries = ['a', 'b', 'c'].map((name, i) => ({
      rel: `${name}.md`,
      size: i,
      mtimeMs: 1,
      ctimeMs: 2,
      ino: 3,
      hash: 'h',
      parsed: { title: i === 1 ? 'short' : 'é日🎉'.repeat(i === 0 ? 30_000 : 70_000) },
    }));
    await snapshot.save('k', entries);
    const text = await readFile(path.join(dir, 'long.json'), 'utf8');
    assert.equal(text.split('\n').length, 3 + entries.length, 'head, rows, end, final newline');
    assert.deepEqual((JSON.parse(text) as { rows: unknown[] }).rows.length, 3);
    assert.deepEqual(snapshot.load('k'), entries);
    const rows = entries.map((e) => JSON.stringify([e.rel, e.size, 1, 2, 3, 'h', e.parsed]));
    await writeFile(path.join(dir, 'long.json'), `{"format":3,"key":"k","rows":[\n${rows.join(',\n')}\n]}\n`);
    assert.deepEqual(snapshot.load('k'), entries);
  });

  it('loads an empty snapshot, and nothing from a file cut short or of another format', async () => {
    const where = path.join(dir, 'cut.json');
    const snapshot = new IndexSnapshot<string>(where);
    await snapshot.save('k', []);
    assert.deepEqual(snapshot.load('k'), []);
    const entry = { rel: 'a.md', size: 1, mtimeMs: 1, ctimeMs: 2, ino: 3, hash: 'h', parsed: 'x' };
    await snapshot.save('k', [entry, { ...entry, rel: 'b.md' }]);
    const text = await readFile(where, 'utf8');
    assert.equal(snapshot.load('k').length, 2);
    await writeFile(where, text.slice(0, text.indexOf('\n]}')));
    assert.deepEqual(snapshot.load('k'), []);
    await writeFile(where, text.replace('"format":3', '"format":2'));
    assert.deepEqual(snapshot.load('k'), []);
  });

  it('leaves no file open, however the reading ends', async (t) => {
    if (!existsSync('/proc/self/fd')) return t.skip('needs /proc/self/fd');
    const where = path.join(dir, 'fds.json');
    const snapshot = new IndexSnapshot<string>(where);
    const entry = { rel: 'a.md', size: 1, mtimeMs: 1, ctimeMs: 2, ino: 3, hash: 'h', parsed: 'x' };
    await snapshot.save('k', [entry]);
    const open = (): number => readdirSync('/proc/self/fd').length;
    const before = open();
    for (const key of ['k', 'another key']) snapshot.load(key);
    await writeFile(where, '{"format":3,"key":"k","rows":[\n[oops\n]}\n');
    snapshot.load('k');
    await writeFile(where, 'not JSON\n');
    snapshot.load('k');
    assert.equal(open(), before);
  });
});
