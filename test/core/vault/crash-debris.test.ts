/** What a killed server leaves behind is cleared at the next start. */
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { silentLogger as silent } from '../../../src/core/logger.js';
import { clearDataDirDebris } from '../../../src/core/vault/crash-debris.js';
import { VaultStore } from '../../../src/core/vault/vault-store.js';
import { tempDir, writeFiles } from '../../helpers/temp.js';

const parse = (_rel: string, text: string): string | null => (text.startsWith('task') ? text : null);

describe('crash debris', () => {
  it('removes the temp files of the note folders before the scan reads, and no one else’s', async () => {
    const { dir, cleanup } = await tempDir('crash-debris-');
    try {
      await writeFiles(dir, {
        'A.md': 'task a\n',
        'Sub/.A.md.0123456789ab.tmp': 'task a, half a write',
        'Sub/B.md': 'task b\n',
        'Sub/.B.md.0123456789ac.tmp': 'task b, new text never renamed in\n',
        'Sub/.other.md.tmp': 'another program’s temp file',
      });
      const store = new VaultStore({ policy: { root: dir, dataDir: path.join(dir, '.data') }, log: silent, parse });
      await store.start();
      await store.stop();
      assert.deepEqual((await readdir(path.join(dir, 'Sub'))).sort(), ['.other.md.tmp', 'B.md']);
      assert.equal(await readFile(path.join(dir, 'Sub/B.md'), 'utf8'), 'task b\n');
      assert.deepEqual(
        store.all().map((r) => r.rel),
        ['A.md', 'Sub/B.md'],
      );
    } finally {
      await cleanup();
    }
  });
  it('removes temp files anywhere in the data dir', async () => {
    const { dir, cleanup } = await tempDir('crash-debris-data-');
    try {
      await writeFiles(dir, {
        'settings.json': '{}',
        '.settings.json.0123456789ab.tmp': '{"secret":"s"}',
        'calendar-cache/.x.json.0123456789ab.tmp': '{}',
        'calendar-cache/x.json': '{}',
      });
      clearDataDirDebris(dir, silent);
      assert.deepEqual((await readdir(dir)).sort(), ['calendar-cache', 'settings.json']);
      assert.deepEqual(await readdir(path.join(dir, 'calendar-cache')), ['x.json']);
    } finally {
      await cleanup();
    }
  });
});
