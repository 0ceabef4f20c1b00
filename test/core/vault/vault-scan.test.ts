/** Which vault files can be task notes, the initial walk, and the scan's reads. */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import path from 'node:path';
import { describe, it, mock } from 'node:test';
import { hashText, scanVault } from '../../../src/core/vault/vault-scan.js';
import { isCandidateNote, NOT_UTF8_NAME, walkVault } from '../../../src/core/vault/vault-walk.js';
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
      // With a limit: the walk while it found no more notes than that, else none.
      const policy = { root: tmp.dir, dataDir: path.join(tmp.dir, 'data') };
      assert.deepEqual(walkVault(policy, '', 2)?.notes.sort(), ['Sub/b.md', 'a.md']);
      assert.equal(walkVault(policy, '', 1), undefined);
    } finally {
      await tmp.cleanup();
    }
  });

  it('skips a folder it may not list, and says so; an unlistable vault root is an error', async () => {
    const tmp = await tempDir();
    const opendir = fs.opendirSync;
    // Root needs no permission to list a folder: the refusal is made here.
    const refused = new Set([path.join(tmp.dir, 'Private'), tmp.dir]);
    let root = false;
    const patched = mock.method(fs, 'opendirSync', (...args: Parameters<typeof opendir>): fs.Dir => {
      if (refused.has(String(args[0])) && (root || String(args[0]) !== tmp.dir)) {
        throw Object.assign(new Error(`EACCES: permission denied, opendir '${String(args[0])}'`), {
          code: 'EACCES',
        });
      }
      return opendir(...args);
    });
    syncBuiltinESMExports();
    try {
      await writeFiles(tmp.dir, { 'a.md': '', 'Private/p.md': '', 'Sub/b.md': '' });
      const policy = { root: tmp.dir, dataDir: path.join(tmp.dir, 'data') };
      const found = walkVault(policy);
      assert.deepEqual(found.notes.sort(), ['Sub/b.md', 'a.md']);
      assert.deepEqual(found.unlisted, ['Private']);
      const scan = await scanVault(policy, () => 'x', []);
      assert.deepEqual(scan.unlisted, ['Private']);
      root = true;
      assert.throws(() => walkVault(policy), /EACCES/);
    } finally {
      patched.mock.restore();
      syncBuiltinESMExports();
      await tmp.cleanup();
    }
  });

  it('reads each note whole, with its size on disk, whatever its length', async () => {
    const tmp = await tempDir();
    try {
      // Around the 64 KiB read buffer, with multi-byte characters on both sides of its end.
      const texts: Record<string, string> = {
        'empty.md': '',
        'small.md': '---\ntitle: Ünïcode ✓\n---\nBody 🎉\n',
        'exact.md': 'a'.repeat(64 * 1024),
        'larger.md': `${'é'.repeat(40_000)}🎉${'b'.repeat(3)}`,
        'big.md': `---\ntitle: Big\n---\n${'x'.repeat(300_000)}`,
      };
      await writeFiles(tmp.dir, texts);
      const seen = new Map<string, string>();
      const scan = await scanVault(
        { root: tmp.dir, dataDir: path.join(tmp.dir, 'data') },
        (rel, text) => {
          seen.set(rel, text);
          return null;
        },
        [],
      );
      for (const [rel, text] of Object.entries(texts)) {
        assert.equal(seen.get(rel), text, rel);
        const note = scan.notes.find((n) => n.rel === rel);
        assert.equal(note?.size, Buffer.byteLength(text), rel);
        assert.equal(note?.hash, hashText(text), rel);
      }
      assert.deepEqual(scan.unreadable, []);
    } finally {
      await tmp.cleanup();
    }
  });

  it('says which note it cannot serve because its file name is not UTF-8', async (t) => {
    const tmp = await tempDir();
    try {
      await writeFiles(tmp.dir, { 'ok.md': 'ok' });
      // "Café.md" in Latin-1. File systems that only take UTF-8 names (APFS) refuse to make it.
      const latin1 = Buffer.concat([Buffer.from(`${tmp.dir}/Caf`), Buffer.from([0xe9]), Buffer.from('.md')]);
      try {
        fs.writeFileSync(latin1, 'text');
      } catch (err) {
        t.skip(`this file system refuses a name that is not UTF-8 (${String(err)})`);
        return;
      }
      const scan = await scanVault({ root: tmp.dir, dataDir: path.join(tmp.dir, 'data') }, () => null, []);
      assert.deepEqual(
        scan.notes.map((n) => n.rel),
        ['ok.md'],
      );
      assert.deepEqual(scan.unreadable, [{ path: 'Caf\uFFFD.md', reason: NOT_UTF8_NAME }]);
    } finally {
      await tmp.cleanup();
    }
  });
});
