/**
 * The vault folder moved away or removed while serving (as an unmount does to it), then back: no
 * note is reported deleted for it, requests that need the disk are refused, and once it is back
 * it is watched again and what changed meanwhile is reported (src/core/vault/vault-root.ts and
 * VaultStore).
 */
import assert from 'node:assert/strict';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { DomainError } from '../../../src/core/errors.js';
import { silentLogger as silent } from '../../../src/core/logger.js';
import { VaultStore, type NoteChange } from '../../../src/core/vault/vault-store.js';
import { waitFor } from '../../helpers/server-process.js';
import { tempDir, writeFiles } from '../../helpers/temp.js';

const parse = (_rel: string, text: string): string | null => (text.startsWith('task') ? text : null);
const describeChange = (c: NoteChange<string>): string =>
  c.kind === 'removed' ? `removed ${c.before.rel}` : `${c.kind} ${c.after.rel}: ${c.after.parsed.trim()}`;
const unavailable = (err: unknown): boolean => {
  assert.ok(err instanceof DomainError && err.code === 'UNAVAILABLE', String(err));
  assert.match(err.message, /^the vault folder .* is gone \(moved or unmounted\)/);
  return true;
};

describe('the vault folder gone while serving', () => {
  let base: string;
  let vault: string;
  let cleanup: () => Promise<void>;
  let store: VaultStore<string>;
  let changes: string[];

  beforeEach(async () => {
    ({ dir: base, cleanup } = await tempDir('vault-gone-'));
    vault = path.join(base, 'vault');
    await writeFiles(vault, { 'A.md': 'task a\n', 'B.md': 'task b\n', 'Sub/C.md': 'task c\n' });
    store = new VaultStore({
      policy: { root: vault, dataDir: path.join(base, 'data') },
      log: silent,
      parse,
      rootCheckMs: 50,
    });
    changes = [];
    store.onExternalChange((c) => changes.push(describeChange(c)));
    await store.start();
  });
  afterEach(async () => {
    await store.stop();
    await cleanup();
  });

  /** Whether another program's change is reported: the watcher runs. */
  const watching = async (): Promise<void> => {
    await writeFile(path.join(vault, 'Probe.md'), 'task probe\n');
    await waitFor(() => changes.includes('added Probe.md: task probe'));
  };

  it('reports no note deleted, keeps the index and refuses what needs the disk', async () => {
    await rename(vault, `${vault}.away`);
    await waitFor(() => !store.available);
    // Changes in the folder where it went are not the vault's while it is away.
    await writeFile(path.join(`${vault}.away`, 'A.md'), 'task a, edited away\n');
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(changes, []);
    assert.deepEqual(
      store.all().map((r) => r.rel),
      ['A.md', 'B.md', 'Sub/C.md'],
    );
    await assert.rejects(store.readFresh('A.md'), unavailable);
    await assert.rejects(store.write('New.md', 'task new\n', null), unavailable);
    await assert.rejects(store.trash('B.md'), unavailable);
  });

  it('comes back with what changed meanwhile reported, and is watched again', async () => {
    await rename(vault, `${vault}.away`);
    await waitFor(() => !store.available);
    const away = `${vault}.away`;
    await writeFile(path.join(away, 'A.md'), 'task a, edited away\n');
    await rm(path.join(away, 'B.md'));
    await writeFiles(away, { 'Sub/D.md': 'task d\n', 'New/E.md': 'task e\n' });
    await rename(away, vault);
    await waitFor(() => store.available);
    await waitFor(() => changes.length >= 4);
    await new Promise((r) => setTimeout(r, 400)); // a repeated or extra report would show by now
    assert.deepEqual(changes.sort(), [
      'added New/E.md: task e',
      'added Sub/D.md: task d',
      'changed A.md: task a, edited away',
      'removed B.md',
    ]);
    assert.equal((await store.readFresh('Sub/C.md'))?.text, 'task c\n');
    changes.length = 0;
    await watching();
    await writeFile(path.join(vault, 'New/E.md'), 'task e, edited\n');
    await waitFor(() => changes.includes('changed New/E.md: task e, edited'));
  });

  it('stays away while an empty folder stands in its place, nothing reported deleted', async () => {
    await rename(vault, `${vault}.away`);
    await mkdir(vault); // the mount point of an unmounted drive
    await waitFor(() => !store.available);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(store.available, false);
    assert.deepEqual(changes, []);
    await assert.rejects(store.write('New.md', 'task new\n', null), unavailable);
    // The drive mounted again: its folder is the vault.
    await rm(vault, { recursive: true });
    await rename(`${vault}.away`, vault);
    await waitFor(() => store.available);
    await watching();
    assert.deepEqual(changes, ['added Probe.md: task probe']);
  });
});
