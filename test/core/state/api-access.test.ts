/** The settings page's HTTP API controls over a real settings file. */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { ApiAccess } from '../../../src/core/state/api-access.js';
import { SettingsStore } from '../../../src/core/state/settings.js';
import { tempDir } from '../../helpers/temp.js';

describe('ApiAccess', () => {
  let dir: { dir: string; cleanup: () => Promise<void> };
  let settings: SettingsStore;
  const stored = async () => JSON.parse(await readFile(path.join(dir.dir, 'settings.json'), 'utf8'));

  beforeEach(async () => {
    dir = await tempDir();
    settings = await SettingsStore.open(dir.dir);
  });
  afterEach(() => dir.cleanup());

  const access = (options: { commandLineToken?: string | null; loopback?: boolean } = {}) =>
    new ApiAccess({
      settings,
      commandLineToken: options.commandLineToken ?? null,
      mayRunWithoutToken: options.loopback ?? true,
    });

  it('starts enabled without a token', () => {
    assert.deepEqual(access().status(), { apiEnabled: true, tokenSet: false, tokenSource: 'none' });
  });

  it('switches the API off and on, persisted', async () => {
    assert.equal((await access().setEnabled(false)).apiEnabled, false);
    assert.equal((await stored()).apiEnabled, false);
    assert.equal((await access().setEnabled(true)).apiEnabled, true);
    assert.equal((await stored()).apiEnabled, true);
  });

  it('sets a token after checking it is header-safe, and changes nothing on bad input', async () => {
    for (const bad of [
      '',
      'short',
      'has space inside',
      'tab\there-12345',
      'ünicode-token',
      'x'.repeat(257),
    ]) {
      await assert.rejects(access().setToken(bad), { code: 'INVALID' }, JSON.stringify(bad));
    }
    assert.equal(settings.get().apiToken, null);
    const status = await access().setToken('good-token-1');
    assert.deepEqual(status, { apiEnabled: true, tokenSet: true, tokenSource: 'settings' });
    assert.equal((await stored()).apiToken, 'good-token-1');
  });

  it('rotates to 64 random hex characters and clears', async () => {
    const first = await access().rotateToken();
    const second = await access().rotateToken();
    assert.match(first.token, /^[0-9a-f]{64}$/);
    assert.notEqual(first.token, second.token);
    assert.equal(settings.get().apiToken, second.token);
    assert.equal((await access().clearToken()).tokenSet, false);
    assert.equal((await stored()).apiToken, null);
  });

  it('refuses to clear the token on a non-loopback address', async () => {
    await access().setToken('good-token-1');
    await assert.rejects(access({ loopback: false }).clearToken(), {
      code: 'CONFLICT',
      message: /non-loopback/,
    });
    assert.equal(settings.get().apiToken, 'good-token-1');
  });

  it('reports a command-line token and refuses to edit the stored one while it applies', async () => {
    const cli = access({ commandLineToken: 'from-the-flag' });
    assert.deepEqual(cli.status(), { apiEnabled: true, tokenSet: true, tokenSource: 'command-line' });
    for (const attempt of [
      () => cli.setToken('another-token'),
      () => cli.rotateToken(),
      () => cli.clearToken(),
    ]) {
      await assert.rejects(attempt(), { code: 'CONFLICT', message: /command line/ });
    }
    assert.equal(settings.get().apiToken, null);
    // The switch is not about the token: it still works.
    assert.equal((await cli.setEnabled(false)).apiEnabled, false);
  });
});
