/** The vault folder moved away, replaced or back (src/core/vault/vault-root.ts). */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { DomainError } from '../../../src/core/errors.js';
import { VaultRoot } from '../../../src/core/vault/vault-root.js';
import { refuseFsCall } from '../../helpers/fs-refusal.js';
import { ManualClock } from '../../helpers/manual-clock.js';
import { waitFor } from '../../helpers/server-process.js';

describe('vault root', () => {
  let base: string;
  let vault: string;
  let root: VaultRoot;
  let known: string[];
  const calls: string[] = [];

  beforeEach(async () => {
    base = await mkdtemp(path.join(os.tmpdir(), 'vault-root-'));
    vault = path.join(base, 'vault');
    await mkdir(vault);
    await writeFile(path.join(vault, 'A.md'), 'a');
    known = ['A.md'];
    calls.length = 0;
    root = new VaultRoot({
      root: vault,
      intervalMs: 60_000, // the tests call check() themselves
      knownNotes: () => known,
      noteExists: (rel) => existsSync(path.join(vault, rel)),
      onLost: () => calls.push('lost'),
      onBack: () => calls.push('back'),
    });
    root.start();
  });

  afterEach(async () => {
    root.stop();
    await rm(base, { recursive: true, force: true });
  });

  it('is in place while the folder stays, and reports nothing', () => {
    assert.equal(root.check(), true);
    root.assertInPlace('; nothing was written');
    assert.equal(root.lostSince, undefined);
    assert.deepEqual(calls, []);
  });

  it('reports the loss once, refuses with 503 meanwhile, and the return of the same folder', async () => {
    await rename(vault, `${vault}.away`);
    assert.equal(root.check(), false);
    assert.equal(root.check(), false);
    assert.deepEqual(calls, ['lost']);
    assert.ok(root.lostSince !== undefined);
    assert.throws(
      () => root.assertInPlace('; nothing was written'),
      (err: unknown) =>
        err instanceof DomainError &&
        err.code === 'UNAVAILABLE' &&
        err.message === `the vault folder ${vault} is gone (moved or unmounted); nothing was written`,
    );
    await rename(`${vault}.away`, vault);
    assert.equal(root.check(), true);
    assert.deepEqual(calls, ['lost', 'back']);
    assert.equal(root.lostSince, undefined);
  });

  it('never takes an empty folder in its place (an unmounted drive) for the vault', async () => {
    await rename(vault, `${vault}.away`);
    await mkdir(vault);
    assert.equal(root.check(), false);
    assert.equal(root.check(), false);
    await writeFile(path.join(vault, 'Other.md'), 'not one of the vault notes');
    assert.equal(root.check(), false);
    assert.deepEqual(calls, ['lost']);
  });

  it('takes another folder holding the vault notes (a share mounted again) for the vault', async () => {
    await rename(vault, `${vault}.away`);
    await mkdir(vault);
    assert.equal(root.check(), false);
    await writeFile(path.join(vault, 'A.md'), 'a');
    assert.equal(root.check(), true);
    assert.deepEqual(calls, ['lost', 'back']);
    // The new folder is the vault now: moving it away is a loss again.
    await rename(vault, `${vault}.second`);
    assert.equal(root.check(), false);
    assert.deepEqual(calls, ['lost', 'back', 'lost']);
  });

  it('takes any folder back for a vault that had no notes', async () => {
    known = [];
    await rm(vault, { recursive: true });
    assert.equal(root.check(), false);
    await mkdir(vault);
    assert.equal(root.check(), true);
    assert.deepEqual(calls, ['lost', 'back']);
  });

  it('counts a folder it may no longer look at as a loss, without throwing', () => {
    const restore = refuseFsCall('statSync', (target) => target === vault);
    try {
      assert.equal(root.check(), false);
      assert.deepEqual(calls, ['lost']);
    } finally {
      restore();
    }
    assert.equal(root.check(), true);
    assert.deepEqual(calls, ['lost', 'back']);
  });

  it('counts a file in the folder’s place as a loss', async () => {
    await rename(vault, `${vault}.away`);
    await writeFile(vault, 'a file');
    assert.equal(root.check(), false);
    assert.deepEqual(calls, ['lost']);
  });

  it('notices a loss and the return on its own, every interval, until stopped', async () => {
    root.stop();
    const clock = new ManualClock();
    const seen: string[] = [];
    const polled = new VaultRoot({
      root: vault,
      intervalMs: 1_000,
      knownNotes: () => known,
      noteExists: (rel) => existsSync(path.join(vault, rel)),
      onLost: () => seen.push('lost'),
      onBack: () => seen.push('back'),
      clock,
    });
    polled.start();
    await rename(vault, `${vault}.away`);
    await clock.advance(999);
    assert.deepEqual(seen, []);
    await clock.advance(1);
    // The look is asynchronous; the next one is armed once it is answered.
    await waitFor(() => seen.length === 1);
    assert.equal(polled.lostSince, clock.now());
    assert.equal(clock.pending(), 1);
    await rename(`${vault}.away`, vault);
    await clock.advance(1_000);
    await waitFor(() => seen.length === 2);
    assert.deepEqual(seen, ['lost', 'back']);
    polled.stop();
    await new Promise((r) => setTimeout(r, 50)); // a look answered after stop arms nothing
    assert.equal(clock.pending(), 0);
    await rename(vault, `${vault}.away`);
    await clock.advance(5_000);
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(seen, ['lost', 'back']);
  });
});
