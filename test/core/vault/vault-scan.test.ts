/** Which vault files can be task notes, and the initial walk. */
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { isCandidateNote, walkVault } from '../../../src/core/vault/vault-scan.js';
import { tempDir, writeFiles } from '../../helpers/temp.js';

describe('vault scan', () => {
  const policy = { root: '/v', dataDir: '/v/state' };

  it('accepts Markdown notes outside hidden, reserved and data folders', () => {
    assert.equal(isCandidateNote(policy, 'TaskNotes/Tasks/A.md'), true);
    assert.equal(isCandidateNote(policy, 'A.MD'), true);
    for (const rel of [
      'A.txt',
      '.obsidian/x.md',
      '.trash/x.md',
      'state/x.md',
      'Folder/.A.md.1a2b3c.tmp',
      'node_modules/p/README.md',
      'Folder/.hidden.md',
    ]) {
      assert.equal(isCandidateNote(policy, rel), false, rel);
    }
  });

  it('walks the vault and returns candidate notes only', async () => {
    const tmp = await tempDir();
    try {
      await writeFiles(tmp.dir, {
        'a.md': '',
        'Sub/b.md': '',
        'Sub/c.txt': '',
        '.obsidian/d.md': '',
        'data/e.md': '',
        'Sub/.f.md.abc.tmp': '',
      });
      const found = walkVault({ root: tmp.dir, dataDir: path.join(tmp.dir, 'data') });
      assert.deepEqual(found.notes.sort(), ['Sub/b.md', 'a.md']);
      assert.deepEqual(found.folders.sort(), ['', 'Sub']);
    } finally {
      await tmp.cleanup();
    }
  });
});
