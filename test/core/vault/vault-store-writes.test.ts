/**
 * Note writes never overwrite another program's edit: the re-check right before the rename, the
 * bounded redo, the request path's re-read of a note caught mid-save, and rename order.
 */
import assert from 'node:assert/strict';
import { promises as fsPromises } from 'node:fs';
import { appendFile, mkdir, readdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { DomainError } from '../../../src/core/errors.js';
import { silentLogger as silent } from '../../../src/core/logger.js';
import { NoteChangedError } from '../../../src/core/vault/note-changed.js';
import { VaultStore, type NoteChange } from '../../../src/core/vault/vault-store.js';
import { tempDir, writeFiles } from '../../helpers/temp.js';

/** A note is indexed when it starts with `task`; its text is the parsed value. */
const parse = (_rel: string, text: string): string | null => (text.startsWith('task') ? text : null);

describe('vault store writes', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let store: VaultStore<string>;
  let changes: Array<NoteChange<string>>;

  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir('vault-store-writes-'));
    await writeFiles(dir, { 'A.md': 'task a\n' });
    store = new VaultStore({ policy: { root: dir, dataDir: path.join(dir, '.data') }, log: silent, parse });
    changes = [];
    store.onExternalChange((c) => changes.push(c));
    await store.start();
  });
  afterEach(async () => {
    await store.stop();
    await cleanup();
  });

  /** A read-modify-write of A.md as the task service does it: append `line` to the fresh text. */
  const appendLine = (line: string, meanwhile?: () => Promise<void>) =>
    store.withLock('A.md', () =>
      store.retryOnChange('A.md', async () => {
        const fresh = await store.readFresh('A.md');
        assert.ok(fresh);
        await meanwhile?.();
        return store.write('A.md', `${fresh.text}${line}\n`, fresh.hash);
      }),
    );

  it("redoes a change when another program saved the note between the read and the rename", async () => {
    let attempts = 0;
    await appendLine('from the API', async () => {
      if (++attempts === 1) await appendFile(path.join(dir, 'A.md'), 'from an editor\n');
    });
    assert.equal(attempts, 2);
    assert.equal(await readFile(path.join(dir, 'A.md'), 'utf8'), 'task a\nfrom an editor\nfrom the API\n');
    assert.deepEqual(await readdir(dir), ['A.md']);
  });

  it('gives up after a bounded number of attempts, writing nothing', async () => {
    let attempts = 0;
    await assert.rejects(
      appendLine('from the API', async () => {
        attempts++;
        await appendFile(path.join(dir, 'A.md'), `edit ${attempts}\n`);
      }),
      (err: unknown) =>
        err instanceof DomainError &&
        err.code === 'CONFLICT' &&
        err.message === 'A.md kept changing on disk while it was being written; nothing was written, try again',
    );
    assert.equal(attempts, 10);
    assert.doesNotMatch(await readFile(path.join(dir, 'A.md'), 'utf8'), /from the API/);
    assert.deepEqual(await readdir(dir), ['A.md']);
  });

  it('never creates over a file that appeared meanwhile', async () => {
    await writeFile(path.join(dir, 'B.md'), 'task b by an editor\n');
    await assert.rejects(
      store.withLock('B.md', () => store.write('B.md', 'task b by the API\n', null)),
      NoteChangedError,
    );
    assert.equal(await readFile(path.join(dir, 'B.md'), 'utf8'), 'task b by an editor\n');
  });

  it('waits for a note caught empty mid-save instead of reporting it gone', async () => {
    const file = path.join(dir, 'A.md');
    await writeFile(file, '');
    setTimeout(() => void writeFile(file, 'task a, saved\n'), 60);
    const fresh = await store.withLock('A.md', () => store.readFresh('A.md'));
    assert.equal(fresh?.text, 'task a, saved\n');
    assert.deepEqual(
      changes.map((c) => c.kind),
      ['changed'],
    );
  });

  it('never takes a note saved in place again and again for gone, however its reads fall', async () => {
    // Another process: truncate, pause, write, pause, for 1.5 s; a look can land on the truncation.
    const writer = spawn(process.execPath, [
      '-e',
      `const fs = require('fs'); const end = Date.now() + 1500; let i = 0;
       const wait = (ms) => { const t = Date.now() + ms; while (Date.now() < t); };
       while (Date.now() < end) { fs.writeFileSync(process.argv[1], ''); wait(5);
         fs.writeFileSync(process.argv[1], 'task a, save ' + i++ + '\\n'); wait(5); }`,
      path.join(dir, 'A.md'),
    ]);
    const saves = new Promise((resolve) => writer.once('exit', resolve));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const answers: string[] = [];
    for (let i = 0; i < 6; i++) {
      try {
        const fresh = await store.withLock('A.md', () => store.readFresh('A.md'));
        answers.push(fresh ? 'read' : 'gone');
      } catch (err) {
        answers.push(err instanceof DomainError ? err.code : String(err));
      }
    }
    await saves;
    await new Promise((resolve) => setTimeout(resolve, 600));
    assert.ok(!answers.includes('gone'), answers.join(', '));
    assert.ok(!changes.some((c) => c.kind === 'removed'), changes.map((c) => c.kind).join(', '));
    assert.ok(store.get('A.md'));
  });

  it('writes nothing once the vault folder was moved away, not even into an empty one in its place', async () => {
    await rename(dir, `${dir}.moved`);
    try {
      await mkdir(dir); // an empty mount point where the vault was
      await assert.rejects(store.write('New.md', 'task new\n', null), (err: unknown) => {
        assert.ok(err instanceof DomainError && err.code === 'UNAVAILABLE', String(err));
        assert.match(err.message, /the vault folder .* is gone \(moved or unmounted\); nothing was written/);
        return true;
      });
      assert.deepEqual(await readdir(dir), []);
    } finally {
      await rm(dir, { recursive: true, force: true });
      await rename(`${dir}.moved`, dir);
    }
  });

  it('writes nothing over a note that is not valid UTF-8, whose bytes a write would replace', async () => {
    const file = path.join(dir, 'Latin1.md');
    const bytes = Buffer.from('task caf\xe9\n', 'latin1');
    await writeFile(file, bytes);
    const fresh = await store.withLock('Latin1.md', () => store.readFresh('Latin1.md'));
    assert.ok(fresh);
    await assert.rejects(store.write('Latin1.md', `${fresh.text}more\n`, fresh.hash), (err: unknown) => {
      assert.ok(err instanceof DomainError && err.code === 'INVALID', String(err));
      assert.match(err.message, /^Latin1\.md is not valid UTF-8 text/);
      return true;
    });
    assert.deepEqual(await readFile(file), bytes);
    assert.deepEqual((await readdir(dir)).sort(), ['A.md', 'Latin1.md']);
  });

  it('still reports a note that stays empty as gone, after the grace', async () => {
    await writeFile(path.join(dir, 'A.md'), '');
    assert.equal(await store.withLock('A.md', () => store.readFresh('A.md')), undefined);
    assert.deepEqual(
      changes.map((c) => c.kind),
      ['removed'],
    );
  });

  it('renames by writing the content first, then moving the note: one note at every step', async () => {
    const fresh = await store.withLock('A.md', () => store.readFresh('A.md'));
    assert.ok(fresh);
    const record = await store.withLock('A.md', () => store.move('A.md', 'Sub/B.md', 'task b\n', fresh.hash));
    assert.equal(record?.rel, 'Sub/B.md');
    assert.equal(store.get('A.md'), undefined);
    assert.deepEqual(await readdir(dir), ['Sub']);
    assert.deepEqual(await readdir(path.join(dir, 'Sub')), ['B.md']);
    assert.equal(await readFile(path.join(dir, 'Sub/B.md'), 'utf8'), 'task b\n');
  });

  it('replaces nothing behind a folder swapped for a link while the new text was being written', async () => {
    const outside = await tempDir('vault-store-outside-');
    try {
      await writeFiles(dir, { 'Tasks/B.md': 'task b\n' });
      const fresh = await store.readFresh('Tasks/B.md');
      assert.ok(fresh);
      // Another program moves the folder out and leaves a link in its place, mid-write.
      const original = fsPromises.writeFile;
      const swap = mock.method(fsPromises, 'writeFile', async (...args: Parameters<typeof original>) => {
        await rename(path.join(dir, 'Tasks'), path.join(outside.dir, 'Tasks'));
        await symlink(path.join(outside.dir, 'Tasks'), path.join(dir, 'Tasks'));
        return original(...args);
      });
      try {
        await assert.rejects(store.write('Tasks/B.md', 'task b changed\n', fresh.hash), DomainError);
      } finally {
        swap.mock.restore();
      }
      assert.equal(await readFile(path.join(outside.dir, 'Tasks/B.md'), 'utf8'), 'task b\n');
      assert.deepEqual(await readdir(path.join(outside.dir, 'Tasks')), ['B.md']);
    } finally {
      await outside.cleanup();
    }
  });

  it('never writes or moves a note into .obsidian/ or the data dir, and a refused move writes nothing', async () => {
    const fresh = await store.withLock('A.md', () => store.readFresh('A.md'));
    assert.ok(fresh);
    const reserved = (err: unknown): boolean => err instanceof DomainError && /never writes/.test(err.message);
    for (const rel of ['.obsidian/x.md', '.obsidian/snippets/x.md', '.data/x.md']) {
      await assert.rejects(store.write(rel, 'task x\n', null), reserved);
      await assert.rejects(
        store.withLock('A.md', () => store.move('A.md', rel, 'task moved\n', fresh.hash)),
        reserved,
      );
    }
    assert.deepEqual(await readdir(dir), ['A.md']);
    assert.equal(await readFile(path.join(dir, 'A.md'), 'utf8'), 'task a\n');
  });

  it('answers 503 naming the cause when the file system refuses a write or a delete, changing nothing', async () => {
    const refusal = (code: string, call: string) =>
      Object.assign(new Error(`${code}: refused, ${call}`), { code });
    const open = mock.method(fsPromises, 'open', async () => {
      throw refusal('EROFS', 'open');
    });
    const rename = mock.method(fsPromises, 'rename', async () => {
      throw refusal('ENOSPC', 'rename');
    });
    try {
      await assert.rejects(appendLine('from the API'), {
        name: 'DomainError',
        code: 'UNAVAILABLE',
        message: 'A.md could not be written (EROFS: the file system is read-only); nothing was changed',
      });
      await assert.rejects(store.withLock('B.md', () => store.write('B.md', 'task b\n', null)), {
        code: 'UNAVAILABLE',
        message: 'B.md could not be written (EROFS: the file system is read-only); nothing was changed',
      });
      await assert.rejects(store.withLock('A.md', () => store.trash('A.md')), {
        code: 'UNAVAILABLE',
        message: 'A.md could not be deleted (ENOSPC: the disk is full); nothing was changed',
      });
    } finally {
      open.mock.restore();
      rename.mock.restore();
    }
    assert.equal(await readFile(path.join(dir, 'A.md'), 'utf8'), 'task a\n');
    assert.equal(store.get('A.md')?.parsed, 'task a\n');
    assert.deepEqual((await readdir(dir)).filter((name) => name !== '.trash'), ['A.md']);
  });
});
