/** The default data dir: per user and vault, outside the vault; an existing `<vault>/.taskdown` wins. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdir, realpath, symlink } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { defaultDataDir } from '../../src/config/data-dir.js';
import { tempDir } from '../helpers/temp.js';

describe('default data dir', () => {
  let tmp: Awaited<ReturnType<typeof tempDir>>;
  let vault: string;
  let folder: string;
  before(async () => {
    tmp = await tempDir('data-dir-');
    vault = path.join(tmp.dir, 'My Notes');
    await mkdir(vault);
    const real = await realpath(vault);
    folder = `My_Notes-${createHash('sha256').update(real).digest('hex').slice(0, 12)}`;
  });
  after(() => tmp.cleanup());

  const linux = (env: NodeJS.ProcessEnv = {}) => ({ platform: 'linux' as const, env, home: '/home/u' });

  it('is in the per-user state folder of each platform, one folder per vault', () => {
    assert.equal(defaultDataDir(vault, linux()), `/home/u/.local/state/taskdown/${folder}`);
    assert.equal(defaultDataDir(vault, linux({ XDG_STATE_HOME: '/xdg' })), `/xdg/taskdown/${folder}`);
    // A relative XDG_STATE_HOME is invalid and ignored.
    assert.equal(
      defaultDataDir(vault, linux({ XDG_STATE_HOME: 'rel' })),
      `/home/u/.local/state/taskdown/${folder}`,
    );
    assert.equal(
      defaultDataDir(vault, { platform: 'darwin', env: {}, home: '/Users/u' }),
      `/Users/u/Library/Application Support/taskdown/${folder}`,
    );
    assert.equal(
      defaultDataDir(vault, {
        platform: 'win32',
        env: { LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local' },
        home: 'C:\\Users\\u',
      }),
      path.join('C:\\Users\\u\\AppData\\Local', 'taskdown', folder),
    );
  });

  it('follows the vault’s real path, also for a vault that does not exist yet', async () => {
    const link = path.join(tmp.dir, 'link');
    await symlink(vault, link);
    assert.equal(defaultDataDir(link, linux()), defaultDataDir(vault, linux()));
    const other = defaultDataDir(path.join(tmp.dir, 'Other', 'My Notes'), linux());
    assert.notEqual(other, defaultDataDir(vault, linux()));
    assert.match(other, /\/taskdown\/My_Notes-[0-9a-f]{12}$/);
  });

  it('keeps using an existing <vault>/.taskdown', async () => {
    await mkdir(path.join(vault, '.taskdown'));
    assert.equal(defaultDataDir(vault, linux()), path.join(vault, '.taskdown'));
  });
});
