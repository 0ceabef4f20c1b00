/** The API switch: the api area answers 503 while off; the settings backend stays reachable. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { echoRoute, shellWith } from '../../../test/helpers/http-shell.js';
import { areaOf } from './area.js';

describe('API switch gate', () => {
  it('derives a route area from its URL pattern', () => {
    assert.equal(areaOf('/api'), 'api');
    assert.equal(areaOf('/api/tasks/:id'), 'api');
    assert.equal(areaOf('/mcp'), 'api');
    assert.equal(areaOf('/settings-api/api/token'), 'settings');
    assert.equal(areaOf('/'), 'page');
    assert.equal(areaOf('/apix'), 'page');
  });

  it('answers 503 on the api area while the API is off, also for a disguised path', async () => {
    let enabled = false;
    const { app } = await shellWith([echoRoute('/api/ping'), echoRoute('/settings-api/ping')], {
      apiEnabled: () => enabled,
    });
    for (const url of ['/api/ping', '/%61pi/ping']) {
      const off = await app.inject({ method: 'GET', url });
      assert.equal(off.statusCode, 503, url);
      assert.deepEqual(off.json(), { success: false, error: 'HTTP API is disabled' });
    }
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
