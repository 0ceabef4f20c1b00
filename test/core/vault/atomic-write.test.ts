import assert from 'node:assert/strict';
import { chmod, chown, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { isTempFileName, writeFileAtomic } from '../../../src/core/vault/atomic-write.js';
import { KeyedLock } from '../../../src/core/vault/keyed-lock.js';
import { tempDir } from '../../helpers/temp.js';

describe('writeFileAtomic', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await tempDir()));
  afterEach(() => cleanup());

  it('replaces content and leaves no temp file', async () => {
    const file = path.join(dir, 'a.md');
    await writeFile(file, 'old');
    await writeFileAtomic(file, 'new');
    assert.equal(await readFile(file, 'utf8'), 'new');
    assert.deepEqual(await readdir(dir), ['a.md']);
  });

  it('writes a file from parts as they come; a failing source leaves the target and no temp file', async () => {
    const file = path.join(dir, 'a.json');
    await writeFile(file, 'old');
    async function* parts(fail: boolean): AsyncGenerator<string | Uint8Array> {
      yield '[1,';
      await new Promise((resolve) => setImmediate(resolve));
      if (fail) throw new Error('source failed');
      yield Buffer.from('2]');
    }
    await assert.rejects(writeFileAtomic(file, parts(true)), /source failed/);
    assert.equal(await readFile(file, 'utf8'), 'old');
    assert.deepEqual(await readdir(dir), ['a.json']);
    await writeFileAtomic(file, parts(false));
    assert.equal(await readFile(file, 'utf8'), '[1,2]');
    assert.deepEqual(await readdir(dir), ['a.json']);
  });

  it('applies the requested mode, also to existing files', async () => {
    const file = path.join(dir, 'secret.json');
    await writeFile(file, '{}', { mode: 0o644 });
    await writeFileAtomic(file, '{"a":1}', { mode: 0o600 });
    assert.equal((await stat(file)).mode & 0o777, 0o600);
  });

  it('creates parent folders on request and fails cleanly otherwise', async () => {
    await writeFileAtomic(path.join(dir, 'x/y/z.md'), 'deep', { mkdir: true });
    assert.equal(await readFile(path.join(dir, 'x/y/z.md'), 'utf8'), 'deep');
    await assert.rejects(writeFileAtomic(path.join(dir, 'missing/z.md'), 'x'), /ENOENT/);
  });

  it('names temp files so scanners can skip them and a start can remove them', () => {
    assert.equal(isTempFileName('.a.md.1a2b3c4d5e6f.tmp'), true);
    assert.equal(isTempFileName('a.md'), false);
    // Another program's temp files are left alone.
    assert.equal(isTempFileName('.a.md.tmp'), false);
    assert.equal(isTempFileName('.a.md.1a2b3c.tmp'), false);
  });

  it('keeps the mode of the file it replaces, whatever the umask', async () => {
    const file = path.join(dir, 'private.md');
    await writeFile(file, 'old');
    await chmod(file, 0o600);
    await writeFileAtomic(file, 'new');
    assert.equal((await stat(file)).mode & 0o7777, 0o600);
    await chmod(file, 0o664);
    const umask = process.umask(0o077);
    try {
      await writeFileAtomic(file, 'newer');
    } finally {
      process.umask(umask);
    }
    assert.equal((await stat(file)).mode & 0o7777, 0o664);
  });

  it('keeps a mode another program set while the new content was being written', async () => {
    const file = path.join(dir, 'note.md');
    await writeFile(file, 'old');
    await chmod(file, 0o644);
    async function* parts() {
      yield 'new ';
      await chmod(file, 0o600); // the user makes the note private mid-write
      yield 'text';
    }
    await writeFileAtomic(file, parts());
    assert.equal(await readFile(file, 'utf8'), 'new text');
    assert.equal((await stat(file)).mode & 0o7777, 0o600);
  });

  it('keeps the owner of the file it replaces where permitted', async (t) => {
    // Root may give a file to anyone; another user only to one of their own groups.
    const root = process.getuid?.() === 0;
    const otherGroup = process.getgroups?.().find((g) => g !== process.getgid?.());
    if (!root && otherGroup === undefined) return t.skip('not root, and the user belongs to one group only');
    const uid = root ? 12345 : (process.getuid?.() ?? 0);
    const gid = root ? 23456 : (otherGroup as number);
    const file = path.join(dir, 'shared.md');
    await writeFile(file, 'old');
    await chown(file, uid, gid);
    await writeFileAtomic(file, 'new');
    const after = await stat(file);
    assert.deepEqual([after.uid, after.gid], [uid, gid]);
  });

  it('ends with a replace step of its caller: a throwing one leaves the target and no temp file', async () => {
    const file = path.join(dir, 'a.md');
    await writeFile(file, 'old');
    await assert.rejects(
      writeFileAtomic(file, 'new', {
        replace: () => {
          throw new Error('changed');
        },
      }),
      /changed/,
    );
    assert.equal(await readFile(file, 'utf8'), 'old');
    assert.deepEqual(await readdir(dir), ['a.md']);
  });
});

describe('KeyedLock', () => {
  it('serializes work per key and runs keys in parallel', async () => {
    const lock = new KeyedLock();
    const order: string[] = [];
    const slow = (label: string, ms: number) => async () => {
      order.push(`start ${label}`);
      await new Promise((r) => setTimeout(r, ms));
      order.push(`end ${label}`);
      return label;
    };
    const results = await Promise.all([lock.run('a', slow('a1', 30)), lock.run('a', slow('a2', 1)), lock.run('b', slow('b1', 1))]);
    assert.deepEqual(results, ['a1', 'a2', 'b1']);
    assert.ok(order.indexOf('end a1') < order.indexOf('start a2'), 'a2 waited for a1');
    assert.ok(order.indexOf('start b1') < order.indexOf('end a1'), 'b1 did not wait for a1');
  });

  it('keeps going after a failure and reports idle', async () => {
    const lock = new KeyedLock();
    await assert.rejects(lock.run('k', async () => Promise.reject(new Error('boom'))));
    assert.equal(await lock.run('k', async () => 'after'), 'after');
    let done = false;
    void lock.run('k', async () => {
      await new Promise((r) => setTimeout(r, 20));
      done = true;
    });
    await lock.idle();
    assert.equal(done, true);
  });
});
