/**
 * A note that is there but cannot be read (its permissions changed, an I/O error) is not a deleted
 * note: the watcher keeps it as it was and reports nothing until it reads again; a request that
 * must read it answers 503. Root reads any file, so the refusal is made here, in `openSync`.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { DomainError } from '../../../src/core/errors.js';
import { silentLogger as silent } from '../../../src/core/logger.js';
import { IndexSnapshot } from '../../../src/core/vault/index-snapshot.js';
import { VaultStore, type NoteChange } from '../../../src/core/vault/vault-store.js';
import { waitFor } from '../../helpers/server-process.js';
import { refuseFsCall } from '../../helpers/fs-refusal.js';
import { tempDir, writeFiles } from '../../helpers/temp.js';

const parse = (_rel: string, text: string): string | null => (text.startsWith('task') ? text : null);
const describeChange = (c: NoteChange<string>): string =>
  c.kind === 'removed' ? `removed ${c.before.rel}` : `${c.kind} ${c.after.rel}: ${c.after.parsed.trim()}`;

describe('a note that cannot be read', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let store: VaultStore<string>;
  let changes: string[];
  const refused = new Set<string>();
  let restore: () => void;

  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir('unreadable-note-'));
    await writeFiles(dir, { 'A.md': 'task a\n', 'B.md': 'task b\n' });
    restore = refuseFsCall('openSync', (target) => refused.has(target));
    store = new VaultStore({ policy: { root: dir, dataDir: path.join(dir, '.data') }, log: silent, parse });
    changes = [];
    store.onExternalChange((c) => changes.push(describeChange(c)));
    await store.start();
  });
  afterEach(async () => {
    refused.clear();
    restore();
    await store.stop();
    await cleanup();
  });

  it('is kept as it was, with nothing reported, and reported once it reads again', async () => {
    refused.add(path.join(dir, 'A.md'));
    // What a chmod does: an event for the note, which then cannot be opened.
    await fs.promises.utimes(path.join(dir, 'A.md'), new Date(), new Date());
    await writeFile(path.join(dir, 'B.md'), 'task b, edited\n'); // the watcher runs meanwhile
    await waitFor(() => changes.includes('changed B.md: task b, edited'));
    await new Promise((r) => setTimeout(r, 500)); // past the watcher's second look at a gone note
    assert.deepEqual(changes, ['changed B.md: task b, edited']);
    assert.equal(store.get('A.md')?.parsed, 'task a\n');

    await assert.rejects(store.withLock('A.md', () => store.readFresh('A.md')), (err: unknown) => {
      assert.ok(err instanceof DomainError && err.code === 'UNAVAILABLE', String(err));
      assert.equal(err.message, 'A.md cannot be read right now (EACCES); nothing was changed');
      return true;
    });

    await writeFile(path.join(dir, 'A.md'), 'task a, edited while unreadable\n');
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(changes, ['changed B.md: task b, edited']);
    refused.clear();
    await fs.promises.utimes(path.join(dir, 'A.md'), new Date(), new Date()); // permissions given back
    await waitFor(() => changes.length === 2);
    assert.deepEqual(changes, ['changed B.md: task b, edited', 'changed A.md: task a, edited while unreadable']);
  });

  it('is reported created only once it can be read', async () => {
    refused.add(path.join(dir, 'C.md'));
    await writeFile(path.join(dir, 'C.md'), 'task c\n');
    await new Promise((r) => setTimeout(r, 400));
    assert.deepEqual(changes, []);
    assert.equal(store.get('C.md'), undefined);
    refused.clear();
    await fs.promises.utimes(path.join(dir, 'C.md'), new Date(), new Date());
    await waitFor(() => changes.length === 1);
    assert.deepEqual(changes, ['added C.md: task c']);
  });

  it('leaves out of the index snapshot a note it cannot look up, and writes the rest', async () => {
    await store.stop();
    const file = path.join(dir, '.data', 'index.snapshot');
    const refusedStat = path.join(dir, 'A.md');
    const restoreStat = refuseFsCall('statSync', (target) => target === refusedStat);
    try {
      // The snapshot trusts only notes not changed in the 2 s before the scan.
      await new Promise((r) => setTimeout(r, 2_100));
      store = new VaultStore({
        policy: { root: dir, dataDir: path.join(dir, '.data') },
        log: silent,
        parse,
        snapshot: { file, key: () => 'k' },
      });
      await store.start();
      await waitFor(() => fs.existsSync(file));
      const saved = new IndexSnapshot<string>(file).load('k');
      assert.deepEqual(
        saved.map((entry) => entry.rel),
        ['B.md'],
      );
    } finally {
      restoreStat();
    }
  });
});
