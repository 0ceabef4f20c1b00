import assert from 'node:assert/strict';
import { mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { DomainError } from '../../../src/core/errors.js';
import { StateFileError } from '../../../src/core/state/json-file.js';
import { SettingsStore } from '../../../src/core/state/settings.js';
import { tempDir } from '../../helpers/temp.js';

describe('SettingsStore', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir());
  });
  afterEach(() => cleanup());

  it('starts from defaults when the file does not exist', async () => {
    const store = await SettingsStore.open(dir);
    assert.equal(store.get().apiEnabled, true);
    assert.equal(store.get().apiToken, null);
    assert.equal(store.get().webhooks, undefined, 'webhooks live in the store, not here');
  });

  it('answers 503, changing nothing, when the data dir cannot be written', async () => {
    const store = await SettingsStore.open(dir);
    // A folder where the file goes: the atomic replace fails as a read-only data dir's would.
    await mkdir(path.join(dir, 'settings.json', 'in-the-way'), { recursive: true });
    await assert.rejects(
      store.update((s) => {
        s.apiEnabled = false;
      }),
      (err: unknown) => {
        assert.ok(err instanceof DomainError && err.code === 'UNAVAILABLE', String(err));
        assert.match(
          err.message,
          /^The settings could not be saved \(E[A-Z]+: the data dir cannot be written\); nothing was changed$/,
        );
        return true;
      },
    );
    assert.equal(store.get().apiEnabled, true);
  });

  it('writes its file again when it is removed while the settings are not the defaults', async () => {
    const store = await SettingsStore.open(dir);
    const file = path.join(dir, 'settings.json');
    assert.equal(await store.restoreIfGone(), false, 'defaults: nothing to keep');
    await assert.rejects(stat(file));
    await store.update((s) => {
      s.apiToken = 'kept-token';
    });
    assert.equal(await store.restoreIfGone(), false, 'the file is there');
    await rm(dir, { recursive: true });
    assert.equal(await store.restoreIfGone(), true);
    assert.equal(JSON.parse(await readFile(file, 'utf8')).apiToken, 'kept-token');
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    assert.equal((await stat(dir)).mode & 0o777, 0o700);
    assert.equal((await SettingsStore.open(dir)).get().apiToken, 'kept-token');
  });

  it('persists atomically with mode 0600 and reloads', async () => {
    const store = await SettingsStore.open(dir);
    await store.update((s) => {
      s.apiToken = 'tok';
      s.apiEnabled = false;
    });
    const file = path.join(dir, 'settings.json');
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    assert.deepEqual(
      (await readdir(dir)).filter((f) => f.endsWith('.tmp')),
      [],
      'no temp files left behind',
    );
    const again = await SettingsStore.open(dir);
    assert.equal(again.get().apiToken, 'tok');
    assert.equal(again.get().apiEnabled, false);
    assert.equal(JSON.parse(await readFile(file, 'utf8')).apiToken, 'tok');
  });

  it('applies concurrent updates in order without losing any', async () => {
    const store = await SettingsStore.open(dir);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        store.update((s) => {
          s.icsSubscriptions.push({
            id: `s${i}`,
            name: `n${i}`,
            url: 'http://x/',
            color: '#fff',
            enabled: true,
            refreshInterval: 60,
          });
        }),
      ),
    );
    const again = await SettingsStore.open(dir);
    assert.equal(again.get().icsSubscriptions.length, 20);
  });

  it('keeps the previous state when a mutation throws', async () => {
    const store = await SettingsStore.open(dir);
    await assert.rejects(
      store.update((s) => {
        s.apiEnabled = false;
        throw new Error('nope');
      }),
    );
    assert.equal(store.get().apiEnabled, true);
  });

  it('refuses corrupt or mistyped files with an error naming the file', async () => {
    const file = path.join(dir, 'settings.json');
    await writeFile(file, '{not json');
    await assert.rejects(SettingsStore.open(dir), (err: unknown) => {
      assert.ok(err instanceof StateFileError);
      assert.match(err.message, /settings\.json is unusable: invalid JSON/);
      return true;
    });
    await writeFile(file, JSON.stringify({ version: 1, webhooks: 'many' }));
    await assert.rejects(SettingsStore.open(dir), /\/webhooks/);
  });

  it('notifies listeners with the next and previous settings', async () => {
    const store = await SettingsStore.open(dir);
    const seen: Array<[boolean, boolean]> = [];
    store.onChange((next, prev) => seen.push([next.apiEnabled, prev.apiEnabled]));
    await store.update((s) => {
      s.apiEnabled = false;
    });
    assert.deepEqual(seen, [[false, true]]);
  });
});
