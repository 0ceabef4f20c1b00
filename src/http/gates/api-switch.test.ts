/** The API-enabled switch: /api answers 503 while off; the settings backend stays reachable. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { echoRoute, shellWith } from '../../../test/helpers/http-shell.js';

describe('API switch gate', () => {
  it('answers 503 on /api while the API is off and serves the settings backend', async () => {
    let enabled = false;
    const { app } = await shellWith([echoRoute('/api/ping'), echoRoute('/settings-api/ping')], {
      apiEnabled: () => enabled,
    });
    const off = await app.inject({ method: 'GET', url: '/api/ping' });
    assert.equal(off.statusCode, 503);
    assert.deepEqual(off.json(), { success: false, error: 'HTTP API is disabled' });
    assert.equal((await app.inject({ method: 'GET', url: '/settings-api/ping' })).statusCode, 200);
    enabled = true;
    assert.equal((await app.inject({ method: 'GET', url: '/api/ping' })).statusCode, 200);
    await app.close();
  });

  it('checks the token before the switch, so a disabled API reveals nothing without it', async () => {
    const { app } = await shellWith([echoRoute('/api/ping')], {
      apiEnabled: () => false,
      token: () => 'secret',
    });
    assert.equal((await app.inject({ method: 'GET', url: '/api/ping' })).statusCode, 401);
    const withToken = await app.inject({
      method: 'GET',
      url: '/api/ping',
      headers: { authorization: 'Bearer secret' },
    });
    assert.equal(withToken.statusCode, 503);
    await app.close();
  });
});
