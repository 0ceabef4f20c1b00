/** One Taskdown per data dir: the lock, its owner record, stale locks and pid reuse. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs, { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { silentLogger as silent } from '../../../src/core/logger.js';
import {
  acquireDataDirLock,
  DataDirLockedError,
  LOCK_FILE,
  readRunningServer,
  type LockOwner,
} from '../../../src/core/state/instance-lock.js';
import { tempDir } from '../../helpers/temp.js';

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid as number;
}

describe('data dir lock', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  const file = (): string => path.join(dir, LOCK_FILE);
  const owner = (): LockOwner => JSON.parse(readFileSync(file(), 'utf8')) as LockOwner;
  const writeOwner = (o: Partial<LockOwner>): Promise<void> =>
    writeFile(
      file(),
      JSON.stringify({
        pid: 1,
        command: 'serve',
        startedAt: '2026-01-01T00:00:00.000Z',
        hostname: os.hostname(),
        ...o,
      }),
    );

  beforeEach(async () => ({ dir, cleanup } = await tempDir('instance-lock-')));
  afterEach(() => cleanup());

  it('records its owner, refuses a second taker naming the owner, and is free after release', async () => {
    const lock = await acquireDataDirLock(dir, { command: 'serve', vault: '/vault', log: silent });
    const held = owner();
    assert.equal(held.pid, process.pid);
    assert.equal(held.command, 'serve');
    assert.equal(held.hostname, os.hostname());
    if (process.platform === 'linux') assert.match(held.processStart ?? '', /^[0-9a-f-]+:\d+$/);
    await lock.listening('http://127.0.0.1:4321');
    assert.equal(owner().url, 'http://127.0.0.1:4321');
    assert.deepEqual(readRunningServer(dir), { ...held, url: 'http://127.0.0.1:4321' });

    await assert.rejects(
      acquireDataDirLock(dir, { command: 'mcp', vault: '/vault', log: silent }),
      (err: unknown) =>
        err instanceof DataDirLockedError &&
        err.message ===
          `the data dir ${dir} is in use by process ${process.pid} (taskdown serve, vault /vault, started ${held.startedAt}, http://127.0.0.1:4321); stop it first, or give this one another --data-dir`,
    );
    await lock.release();
    assert.equal(existsSync(file()), false);
    assert.equal(readRunningServer(dir), undefined);
    await (await acquireDataDirLock(dir, { command: 'serve', vault: '/vault', log: silent })).release();
  });

  it('takes over the lock of a process that is gone (killed with -9)', async () => {
    await writeOwner({ pid: await deadPid(), url: 'http://127.0.0.1:1' });
    assert.equal(readRunningServer(dir), undefined);
    const lock = await acquireDataDirLock(dir, { command: 'serve', vault: '/vault', log: silent });
    assert.equal(owner().pid, process.pid);
    await lock.release();
  });

  it('takes over the lock of a process that has exited but is not reaped yet (a zombie)', async (t) => {
    if (process.platform === 'win32') return t.skip('no zombies on Windows');
    // `sleep 0` exits at once; its parent, replaced by `sleep 30`, never waits for it.
    const parent = spawn('sh', ['-c', 'sleep 0 & echo $!; exec sleep 30'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    t.after(() => parent.kill('SIGKILL'));
    const zombie = Number(
      await new Promise<string>((resolve) => parent.stdout.once('data', (b) => resolve(String(b)))),
    );
    if (process.platform === 'linux') {
      for (let i = 0; i < 100 && !readFileSync(`/proc/${zombie}/stat`, 'utf8').includes(') Z '); i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.match(readFileSync(`/proc/${zombie}/stat`, 'utf8'), /\) Z /);
    }
    process.kill(zombie, 0); // still found by its pid
    await writeOwner({ pid: zombie, url: 'http://127.0.0.1:1' });
    assert.equal(readRunningServer(dir), undefined);
    const lock = await acquireDataDirLock(dir, { command: 'serve', vault: '/vault', log: silent });
    assert.equal(owner().pid, process.pid);
    await lock.release();
  });

  it('takes over a lock whose pid now belongs to another process', async (t) => {
    if (process.platform === 'win32') return t.skip('no process start times on Windows');
    // This process runs, but it is not the process that wrote this lock.
    await writeOwner({ pid: process.pid, processStart: 'another-boot:12345' });
    const lock = await acquireDataDirLock(dir, { command: 'serve', vault: '/vault', log: silent });
    assert.notEqual(owner().processStart, 'another-boot:12345');
    await lock.release();
  });

  it('takes over a lock another host wrote (a data dir that arrived by sync)', async () => {
    await writeOwner({ pid: process.pid, hostname: `not-${os.hostname()}` });
    await (await acquireDataDirLock(dir, { command: 'serve', vault: '/vault', log: silent })).release();
  });

  it('waits briefly for a lock being written, then takes over one left empty', async () => {
    await writeFile(file(), '');
    const lock = await acquireDataDirLock(dir, {
      command: 'serve',
      vault: '/vault',
      log: silent,
      patienceMs: 100,
    });
    assert.equal(owner().pid, process.pid);
    await lock.release();
  });

  it('lets exactly one of many concurrent takers have a stale lock', async () => {
    await writeOwner({ pid: await deadPid() });
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () =>
        acquireDataDirLock(dir, { command: 'serve', vault: '/vault', log: silent }),
      ),
    );
    const won = results.filter((r) => r.status === 'fulfilled');
    assert.equal(won.length, 1);
    for (const r of results) {
      if (r.status === 'rejected') assert.ok(r.reason instanceof DataDirLockedError, String(r.reason));
    }
    await (won[0] as PromiseFulfilledResult<{ release(): Promise<void> }>).value.release();
  });

  // The race behind a rare failure of the test above: two starters judge the same lock stale; one
  // takes it over and creates its own just as the other, holding the takeover lock, finds the file
  // missing (an exclusive create runs on libuv's thread pool, so it can land between two
  // synchronous calls of the main thread). The second must leave the first one's new lock alone.
  // Here the first starter's removal and create are made to happen during the second one's read.
  it('leaves alone a lock another starter creates while it finds the stale one gone', async () => {
    await writeOwner({ pid: await deadPid() });
    const guard = path.join(dir, 'taskdown.lock.takeover');
    const rival = JSON.stringify({
      pid: process.pid,
      command: 'serve',
      startedAt: '2026-01-02T00:00:00.000Z',
      hostname: os.hostname(),
    });
    const read = fs.readFileSync;
    let raced = false;
    const patched = mock.method(fs, 'readFileSync', (...args: Parameters<typeof read>): unknown => {
      if (!raced && args[0] === file() && existsSync(guard)) {
        raced = true;
        fs.unlinkSync(file());
        try {
          return read(...args);
        } finally {
          fs.writeFileSync(file(), rival);
        }
      }
      return read(...args);
    });
    syncBuiltinESMExports();
    try {
      await assert.rejects(
        acquireDataDirLock(dir, { command: 'serve', vault: '/vault', log: silent }),
        (err) => err instanceof DataDirLockedError && err.owner.startedAt === '2026-01-02T00:00:00.000Z',
      );
    } finally {
      patched.mock.restore();
      syncBuiltinESMExports();
    }
    assert.equal(raced, true);
    assert.equal(readFileSync(file(), 'utf8'), rival);
  });

  it('names the lock file and what to do when it is a folder', async () => {
    fs.mkdirSync(file());
    await assert.rejects(acquireDataDirLock(dir, { command: 'serve', vault: '/v', log: silent }), {
      name: 'LockFileError',
      message: `cannot use the data dir lock ${file()}: it is a folder, not a file; remove it, then start again`,
    });
  });

  it('leaves no empty lock file behind when its owner record cannot be written (disk full)', async () => {
    const open = fs.promises.open;
    const patched = mock.method(fs.promises, 'open', async (...args: Parameters<typeof open>) => {
      const handle = await open(...args);
      return Object.assign(Object.create(Object.getPrototypeOf(handle) as object) as object, handle, {
        writeFile: () =>
          Promise.reject(
            Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }),
          ),
        close: () => handle.close(),
      });
    });
    try {
      await assert.rejects(acquireDataDirLock(dir, { command: 'serve', vault: '/v', log: silent }), {
        name: 'LockFileError',
        code: 'ENOSPC',
      });
    } finally {
      patched.mock.restore();
    }
    assert.equal(existsSync(file()), false);
  });

  it('writes its lock again when the file, or the whole data dir, is removed while it is held', async () => {
    const warned: string[] = [];
    const log = { ...silent, warn: (_: object | string, msg?: string) => void warned.push(msg ?? '') };
    const lock = await acquireDataDirLock(dir, { command: 'serve', vault: '/vault', log });
    await lock.listening('http://127.0.0.1:4321');
    fs.rmSync(file());
    await lock.restore();
    assert.equal(owner().pid, process.pid);
    assert.equal(owner().url, 'http://127.0.0.1:4321');
    fs.rmSync(dir, { recursive: true });
    await lock.restore();
    assert.equal(fs.statSync(dir).mode & 0o777, 0o700);
    assert.equal(owner().pid, process.pid);
    assert.equal((fs.statSync(file()).mode & 0o777).toString(8), '600');
    await lock.restore(); // there: nothing to do
    assert.deepEqual(warned, [
      'the data dir lock was removed while Taskdown ran; it was written again',
      'the data dir lock was removed while Taskdown ran; it was written again',
    ]);
    await lock.release();
    assert.equal(existsSync(file()), false);
  });

  it('says so, once, when another running Taskdown took the lock meanwhile, and leaves its lock alone', async () => {
    const errors: string[] = [];
    const log = { ...silent, error: (_: object | string, msg?: string) => void errors.push(msg ?? '') };
    const lock = await acquireDataDirLock(dir, { command: 'serve', vault: '/vault', log });
    fs.rmSync(file());
    // A process that runs (pid 1, without a recorded start: a live pid counts as the owner).
    await writeOwner({ pid: 1 });
    await lock.restore();
    await lock.restore();
    assert.deepEqual(errors, [
      'another Taskdown took the data dir lock while this one ran (its file had been removed): stop one of them',
    ]);
    await lock.release();
    assert.equal(owner().pid, 1);
  });
});
