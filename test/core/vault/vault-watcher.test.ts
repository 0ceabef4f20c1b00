/** The folder watcher, through VaultStore: external creates, edits, atomic saves, folder moves, own writes. */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { silentLogger as silent } from '../../../src/core/logger.js';
import { VaultStore, type NoteChange } from '../../../src/core/vault/vault-store.js';
import { NOT_UTF8_NAME } from '../../../src/core/vault/vault-walk.js';
import { tempDir, writeFiles } from '../../helpers/temp.js';

/** Every non-empty `.md` note is indexed with its text as the parsed value. */
const parse = (_rel: string, text: string): string | null => (text === '' ? null : text);

async function until(check: () => boolean, what: string): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > 2_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('vault watcher', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let store: VaultStore<string>;
  let changes: Array<NoteChange<string>>;
  let files: string[];

  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir('vault-watcher-'));
    await writeFiles(dir, { 'A.md': 'a', 'Sub/B.md': 'b', '.obsidian/plugins/x/data.json': '{}' });
    store = new VaultStore({
      policy: { root: dir, dataDir: path.join(dir, '.data') },
      log: silent,
      parse,
      watchFiles: ['.obsidian/plugins/x/data.json'],
      stabilityMs: 20,
    });
    changes = [];
    files = [];
    store.onExternalChange((c) => changes.push(c));
    store.onWatchedFileChange((rel) => files.push(rel));
    await store.start();
  });
  afterEach(async () => {
    await store.stop();
    await cleanup();
  });

  const kinds = (): string[] =>
    changes.map((c) => `${c.kind} ${c.kind === 'removed' ? c.before.rel : c.after.rel}`);

  it('reports a rewrite in place as one change even when a read lands between truncation and write', async () => {
    // Truncate, let the watcher read the empty file, then write: as an editor rewriting in place
    // (or a slow writer) would.
    await writeFile(path.join(dir, 'A.md'), '');
    await new Promise((r) => setTimeout(r, 100));
    await writeFile(path.join(dir, 'A.md'), 'a3');
    await until(() => store.get('A.md')?.parsed === 'a3', 'rewrite');
    await new Promise((r) => setTimeout(r, 60));
    assert.deepEqual(kinds(), ['changed A.md']);
  });

  it('still reports a note emptied for good as removed', async () => {
    await writeFile(path.join(dir, 'A.md'), '');
    await until(() => store.get('A.md') === undefined, 'removal');
    assert.deepEqual(kinds(), ['removed A.md']);
  });

  it('reports in-place edits and atomic saves (rename over the note) as changes', async () => {
    await writeFile(path.join(dir, 'A.md'), 'a2');
    await until(() => store.get('A.md')?.parsed === 'a2', 'in-place edit');
    await writeFile(path.join(dir, 'Sub/.B.md.tmp'), 'b2');
    await rename(path.join(dir, 'Sub/.B.md.tmp'), path.join(dir, 'Sub/B.md'));
    await until(() => store.get('Sub/B.md')?.parsed === 'b2', 'atomic save');
    assert.deepEqual(kinds(), ['changed A.md', 'changed Sub/B.md']);
  });

  it('watches folders created later and forgets removed ones', async () => {
    await mkdir(path.join(dir, 'New/Deep'), { recursive: true });
    await writeFile(path.join(dir, 'New/Deep/C.md'), 'c');
    await until(() => store.get('New/Deep/C.md') !== undefined, 'note in a new folder');
    await writeFile(path.join(dir, 'New/Deep/C.md'), 'c2');
    await until(() => store.get('New/Deep/C.md')?.parsed === 'c2', 'edit in the new folder');
    await rename(path.join(dir, 'New'), path.join(dir, 'Moved'));
    await until(() => store.get('Moved/Deep/C.md') !== undefined && !store.get('New/Deep/C.md'), 'folder rename');
    await rm(path.join(dir, 'Moved'), { recursive: true });
    await until(() => !store.get('Moved/Deep/C.md'), 'folder removal');
    for (const k of ['added New/Deep/C.md', 'removed New/Deep/C.md', 'added Moved/Deep/C.md', 'removed Moved/Deep/C.md']) {
      assert.ok(kinds().includes(k), `${k} in ${kinds().join(', ')}`);
    }
  });

  it('finds the notes under a folder, whether its folder index was made before a change or after', async () => {
    // Made after the change: on this first call.
    await writeFiles(dir, { 'Sub/Deep/C.md': 'c' });
    await until(() => store.get('Sub/Deep/C.md') !== undefined, 'new note');
    assert.deepEqual(store.notesUnder('Sub').sort(), ['Sub/B.md', 'Sub/Deep/C.md']);
    // Kept up to date from now on.
    await rm(path.join(dir, 'Sub/B.md'));
    await until(() => store.get('Sub/B.md') === undefined, 'removal');
    await writeFiles(dir, { 'D.md': 'd' });
    await until(() => store.get('D.md') !== undefined, 'another note');
    assert.deepEqual(store.notesUnder('Sub'), ['Sub/Deep/C.md']);
    assert.deepEqual(store.notesUnder('').sort(), ['A.md', 'D.md', 'Sub/Deep/C.md']);
  });

  it('does not report its own writes, and reports extra watched files', async () => {
    await store.withLock('A.md', () => store.write('A.md', 'mine', store.get('A.md')?.hash ?? null));
    await writeFile(path.join(dir, '.obsidian/plugins/x/data.json'), '{"a":1}');
    await until(() => files.length > 0, 'data.json change');
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(changes, []);
    assert.equal(store.get('A.md')?.parsed, 'mine');
    assert.deepEqual([...new Set(files)], ['.obsidian/plugins/x/data.json']);
  });

  it('ignores hidden folders and non-note files', async () => {
    await writeFiles(dir, { '.trash/D.md': 'd', 'E.txt': 'e', '.obsidian/F.md': 'f' });
    await new Promise((r) => setTimeout(r, 150));
    assert.deepEqual(changes, []);
  });

  it('forgets the notes of a folder replaced by a folder link, and never reads through it', async () => {
    const outside = await tempDir('vault-watcher-out-');
    try {
      await writeFiles(outside.dir, { 'B.md': 'outside', 'X.md': 'x' });
      await rm(path.join(dir, 'Sub'), { recursive: true });
      await symlink(outside.dir, path.join(dir, 'Sub'));
      await until(() => store.get('Sub/B.md') === undefined, 'removal');
      await writeFile(path.join(outside.dir, 'B.md'), 'outside 2');
      await new Promise((r) => setTimeout(r, 150));
      assert.deepEqual(kinds(), ['removed Sub/B.md']);
      assert.equal(await store.readFresh('Sub/X.md'), undefined);
      await assert.rejects(store.withLock('Sub/New.md', () => store.write('Sub/New.md', 'n', null)), /symbolic link/);
    } finally {
      await outside.cleanup();
    }
  });

  it('indexes a file link created later when it leads inside the vault, and follows its target', async () => {
    const outside = await tempDir('vault-watcher-out-');
    try {
      await writeFiles(outside.dir, { 'Out.md': 'outside' });
      await writeFiles(dir, { '.store/T.md': 't' });
      await symlink(path.join(outside.dir, 'Out.md'), path.join(dir, 'Leak.md'));
      await symlink('.store/T.md', path.join(dir, 'Alias.md'));
      await until(() => store.get('Alias.md') !== undefined, 'link added');
      await writeFile(path.join(dir, '.store/T.md'), 't2');
      await until(() => store.get('Alias.md')?.parsed === 't2', "target's edit");
      await store.withLock('Alias.md', () => store.write('Alias.md', 't3', store.get('Alias.md')?.hash ?? null));
      await new Promise((r) => setTimeout(r, 150));
      assert.deepEqual(kinds(), ['added Alias.md', 'changed Alias.md']);
      assert.equal(store.get('Leak.md'), undefined);
    } finally {
      await outside.cleanup();
    }
  });
});

describe('vault watcher and file names that are not UTF-8', () => {
  it('says once for each such note why it is not served: at the start and when one appears', async (t) => {
    const { dir, cleanup } = await tempDir('vault-misnamed-');
    const warnings: Array<{ path: string; reason: string }> = [];
    const log = {
      ...silent,
      warn: (obj: object | string) => {
        if (typeof obj === 'object') warnings.push(obj as { path: string; reason: string });
      },
    };
    // "Café.md" and "Caféine.md" in Latin-1. File systems that only take UTF-8 names (APFS) refuse them.
    const latin1 = (stem: string): Buffer =>
      Buffer.concat([Buffer.from(`${dir}/${stem}`), Buffer.from([0xe9]), Buffer.from('.md')]);
    try {
      await writeFiles(dir, { 'A.md': 'a' });
      try {
        writeFileSync(latin1('Caf'), 'at start');
      } catch (err) {
        t.skip(`this file system refuses a name that is not UTF-8 (${String(err)})`);
        return;
      }
      const store = new VaultStore({
        policy: { root: dir, dataDir: path.join(dir, '.data') },
        log,
        parse,
        stabilityMs: 20,
      });
      await store.start();
      try {
        writeFileSync(Buffer.concat([latin1('Caf').subarray(0, -3), Buffer.from('ine.md')]), 'later');
        await until(() => warnings.some((w) => w.path === 'Caf\uFFFDine.md'), 'the later one');
        // The start's look for changes made while it scanned has run by now (it runs when quiet).
        await new Promise((r) => setTimeout(r, 1_500));
        assert.deepEqual(
          warnings.map((w) => [w.path, w.reason]),
          [
            ['Caf\uFFFD.md', NOT_UTF8_NAME],
            ['Caf\uFFFDine.md', NOT_UTF8_NAME],
          ],
        );
        assert.deepEqual(
          store.all().map((n) => n.rel),
          ['A.md'],
        );
      } finally {
        await store.stop();
      }
    } finally {
      await cleanup();
    }
  });
});
