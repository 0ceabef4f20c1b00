import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DomainError } from '../../../src/core/errors.js';
import { isReservedVaultPath, resolveVaultPath } from '../../../src/core/vault/paths.js';

const policy = { root: '/vault', dataDir: '/vault/.taskdown' };

describe('resolveVaultPath', () => {
  it('accepts vault-relative paths and normalises them', () => {
    assert.deepEqual(resolveVaultPath(policy, 'TaskNotes/Tasks/A b.md'), {
      rel: 'TaskNotes/Tasks/A b.md',
      abs: '/vault/TaskNotes/Tasks/A b.md',
    });
    assert.equal(resolveVaultPath(policy, './x/./y.md').rel, 'x/y.md');
    assert.equal(resolveVaultPath(policy, 'x\\y.md').rel, 'x/y.md');
  });

  for (const bad of [
    '',
    '../etc/passwd',
    'a/../../b.md',
    '..',
    '/etc/passwd',
    'C:/Windows/win.ini',
    'a\0b.md',
    '.obsidian/plugins/tasknotes/data.json',
    '.obsidian',
    '.taskdown/settings.json',
    '..\\secret.md',
  ]) {
    it(`rejects ${JSON.stringify(bad)} as INVALID`, () => {
      assert.throws(
        () => resolveVaultPath(policy, bad, 'task id'),
        (err: unknown) => err instanceof DomainError && err.code === 'INVALID' && /task id/.test(err.message),
      );
    });
  }

  it('reserves a data dir inside the vault but not one outside it', () => {
    assert.equal(isReservedVaultPath(policy, '.taskdown/x.json'), true);
    assert.equal(isReservedVaultPath({ root: '/vault', dataDir: '/var/lib/taskdown' }, '.taskdown/x.json'), false);
    assert.equal(isReservedVaultPath(policy, '.obsidianx/a.md'), false);
  });
});
