/** The link rule: which vault paths may be read and written, and where they lead. */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { inspectVaultPath, inspectVaultPathForRead } from '../../../src/core/vault/vault-entry.js';
import { vaultFilePath } from '../../../src/core/vault/vault-files.js';
import { walkVault } from '../../../src/core/vault/vault-walk.js';
import { tempDir, writeFiles } from '../../helpers/temp.js';

describe('vault link rule', () => {
  let vault: Awaited<ReturnType<typeof tempDir>>;
  let outside: Awaited<ReturnType<typeof tempDir>>;
  let policy: { root: string; dataDir: string };

  before(async () => {
    vault = await tempDir('vault-entry-');
    outside = await tempDir('vault-entry-out-');
    // The vault is reached through a link itself: its real path differs from the configured one.
    await mkdir(path.join(vault.dir, 'real'));
    const root = path.join(vault.dir, 'root');
    await symlink(path.join(vault.dir, 'real'), root);
    policy = { root, dataDir: path.join(root, '.taskdown') };
    await writeFiles(outside.dir, { 'Out.md': 'x', 'Dir/In.md': 'x' });
    await writeFiles(root, {
      'Notes/Plain.md': 'x',
      'Hidden/.x/Target.md': 'x',
      '.obsidian/plugins/tasknotes/data.json': '{}',
      '.obsidian/shared.json': '{}',
      '.taskdown/settings.json': '{"apiToken":"secret"}',
      'Notes/Sub/Deep.md': 'x',
    });
    const link = (target: string, at: string) => symlink(target, path.join(root, at));
    await link('../Hidden/.x/Target.md', 'Notes/Alias.md');
    await link(path.join(root, 'Notes/Plain.md'), 'Notes/Absolute.md');
    await link(path.join(outside.dir, 'Out.md'), 'Notes/Leak.md');
    await link('../Nowhere.md', 'Notes/Dangling.md');
    await link('Loop.md', 'Notes/Loop.md');
    await link('../.obsidian/shared.json', 'Notes/Config.md');
    await link('../.taskdown/settings.json', 'Notes/Secrets.md');
    await link('Sub', 'Notes/SubLink');
    await link(path.join(outside.dir, 'Dir'), 'OutDir');
    await link('../shared.json', '.obsidian/plugins/shared.json');
    await link('../../../.taskdown/settings.json', '.obsidian/plugins/tasknotes/secrets.json');
    execFileSync('mkfifo', [path.join(root, 'Notes/Fifo.md')]);
  });
  after(async () => {
    await vault.cleanup();
    await outside.cleanup();
  });

  const kind = (rel: string): string => inspectVaultPath(policy, rel).kind;

  it('accepts regular files, folders and new paths under real folders', () => {
    assert.deepEqual(inspectVaultPath(policy, 'Notes/Plain.md'), {
      kind: 'file',
      real: path.join(policy.root, 'Notes/Plain.md'),
      link: false,
    });
    assert.equal(kind('Notes'), 'folder');
    assert.equal(kind('Notes/New.md'), 'missing');
    assert.equal(kind('New/Deeper/New.md'), 'missing');
  });

  it('follows file links to regular files inside the vault, to their real path', () => {
    const real = path.join(vault.dir, 'real');
    assert.deepEqual(inspectVaultPath(policy, 'Notes/Alias.md'), {
      kind: 'file',
      real: path.join(real, 'Hidden/.x/Target.md'),
      link: true,
    });
    assert.equal(kind('Notes/Absolute.md'), 'file');
    assert.equal(kind('.obsidian/plugins/shared.json'), 'file');
  });

  for (const [rel, why] of [
    ['Notes/Leak.md', 'a file link that leads out'],
    ['Notes/Dangling.md', 'a dangling link'],
    ['Notes/Loop.md', 'a link loop'],
    ['Notes/Config.md', 'a note linking into .obsidian'],
    ['Notes/Secrets.md', 'a note linking into the data dir'],
    ['.obsidian/plugins/tasknotes/secrets.json', '.obsidian linking into the data dir'],
    ['Notes/SubLink/Deep.md', 'a folder link inside the vault'],
    ['OutDir/In.md', 'a folder link that leads out'],
    ['OutDir/New.md', 'a new file behind a folder link'],
    ['OutDir/Newer/New.md', 'a new folder behind a folder link'],
    ['Notes/Plain.md/x.md', 'a file used as a folder'],
    ['Notes/Fifo.md', 'a FIFO'],
  ] as const) {
    it(`refuses ${why}`, () => {
      assert.equal(kind(rel), 'refused');
    });
  }

  it('answers a read as a write check does, except that nothing there is missing at once', () => {
    const every = [
      ...['Notes/Plain.md', 'Notes', 'Notes/New.md', 'New/Deeper/New.md', 'Notes/Alias.md'],
      ...['Notes/Absolute.md', '.obsidian/plugins/shared.json', 'Notes/Leak.md', 'Notes/Dangling.md'],
      ...['Notes/Loop.md', 'Notes/Config.md', 'Notes/Secrets.md', '.obsidian/plugins/tasknotes/secrets.json'],
      ...['Notes/SubLink/Deep.md', 'OutDir/In.md', 'Notes/Plain.md/x.md', 'Notes/Fifo.md'],
    ];
    for (const rel of every) {
      assert.deepEqual(inspectVaultPathForRead(policy, rel), inspectVaultPath(policy, rel), rel);
    }
    // Behind a folder link nothing is opened either way; for a read, what is not there is missing.
    for (const rel of ['OutDir/New.md', 'OutDir/Newer/New.md']) {
      assert.equal(kind(rel), 'refused');
      assert.equal(inspectVaultPathForRead(policy, rel).kind, 'missing', rel);
    }
  });

  it('lists in-vault file links as notes and never enters folder links', () => {
    const walk = walkVault(policy);
    assert.deepEqual(walk.notes.sort(), ['Notes/Absolute.md', 'Notes/Alias.md', 'Notes/Plain.md', 'Notes/Sub/Deep.md']);
    assert.deepEqual(walk.links.sort(), ['Notes/Absolute.md', 'Notes/Alias.md']);
    assert.deepEqual(walk.folders.sort(), ['', 'Hidden', 'Notes', 'Notes/Sub']);
  });

  it('names client files by the rule and says nothing about where a refused link leads', () => {
    assert.equal(vaultFilePath(policy, 'Notes/Alias.md', 'transform file'), path.join(vault.dir, 'real/Hidden/.x/Target.md'));
    assert.equal(vaultFilePath(policy, 'Notes/None.json', 'transform file'), path.join(policy.root, 'Notes/None.json'));
    assert.throws(
      () => vaultFilePath(policy, 'Notes/Leak.md', 'transform file'),
      (err: Error) =>
        err.message === 'Invalid transform file: it is reached through a symbolic link that Taskdown does not follow',
    );
  });
});
