/**
 * What another program does to the vault while a start scans it (after the walk, before the
 * watcher runs) is caught up with once the watcher runs: notes changed after they were read,
 * notes deleted, notes and folders created. Here the changes are made by the parser itself, on
 * the last note the scan reads, so they land between the read and the watcher every time.
 */
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { silentLogger as silent } from '../../../src/core/logger.js';
import { VaultStore, type NoteChange } from '../../../src/core/vault/vault-store.js';
import { waitFor } from '../../helpers/server-process.js';
import { tempDir, writeFiles } from '../../helpers/temp.js';

describe('a start catches up with changes made while it scanned', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let store: VaultStore<string>;
  const changes: Array<NoteChange<string>> = [];
  const describeChange = (c: NoteChange<string>): string =>
    c.kind === 'removed' ? `removed ${c.before.rel}` : `${c.kind} ${c.after.rel}: ${c.after.parsed}`;

  before(async () => {
    ({ dir, cleanup } = await tempDir('start-catch-up-'));
    await writeFiles(dir, {
      'A.md': 'task a\n',
      'B.md': 'task b\n',
      'Same.md': 'task same\n',
      'Z.md': 'task z\n',
    });
    let meddled = false;
    // A note is indexed when it starts with `task`; its text is the parsed value. Reading Z.md,
    // the last note, "another program" edits A.md, deletes B.md, creates C.md and a folder.
    const parse = (rel: string, text: string): string | null => {
      if (rel === 'Z.md' && !meddled) {
        meddled = true;
        writeFileSync(path.join(dir, 'A.md'), 'task a, edited\n');
        rmSync(path.join(dir, 'B.md'));
        writeFileSync(path.join(dir, 'C.md'), 'task c\n');
        mkdirSync(path.join(dir, 'New folder'));
        writeFileSync(path.join(dir, 'New folder/D.md'), 'task d\n');
      }
      return text.startsWith('task') ? text : null;
    };
    store = new VaultStore({ policy: { root: dir, dataDir: path.join(dir, '.data') }, log: silent, parse });
    store.onExternalChange((c) => changes.push(c));
    await store.start();
  });
  after(async () => {
    await store.stop();
    await cleanup();
  });

  it('reports and indexes them as the watcher would have', async () => {
    await waitFor(() => changes.length >= 4);
    await new Promise((r) => setTimeout(r, 300)); // a repeated or extra report would show by now
    assert.deepEqual(changes.map(describeChange).sort(), [
      'added C.md: task c\n',
      'added New folder/D.md: task d\n',
      'changed A.md: task a, edited\n',
      'removed B.md',
    ]);
    assert.equal(store.get('A.md')?.parsed, 'task a, edited\n');
    assert.equal(store.get('B.md'), undefined);
    assert.equal(store.get('New folder/D.md')?.parsed, 'task d\n');
  });

  it('watches the folder created meanwhile', async () => {
    writeFileSync(path.join(dir, 'New folder/E.md'), 'task e\n');
    await waitFor(() => store.get('New folder/E.md') !== undefined);
  });
});
