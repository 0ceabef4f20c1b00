/** The auth gate: a configured token is required on protected paths, compared in constant time. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { echoRoute, shellWith } from '../../../test/helpers/http-shell.js';
import { tokenMatches } from './auth.js';

describe('tokenMatches', () => {
  it('accepts exactly "Bearer <token>"', () => {
    assert.equal(tokenMatches('Bearer abc', 'abc'), true);
    assert.equal(tokenMatches('Bearer abcd', 'abc'), false);
    assert.equal(tokenMatches('Bearer ab', 'abc'), false);
    assert.equal(tokenMatches('abc', 'abc'), false);
    assert.equal(tokenMatches('bearer abc', 'abc'), false);
    assert.equal(tokenMatches(undefined, 'abc'), false);
  });
});

describe('auth gate', () => {
  const routes = [
    echoRoute('/api/ping'),
    echoRoute('/settings-api/ping'),
    echoRoute('/asset', { public: true }),
  ];

  it('answers 401 without the token on protected paths and lets the right token through', async () => {
    const { app } = await shellWith(routes, { token: () => 'secret' });
    for (const url of ['/api/ping', '/settings-api/ping']) {
      const none = await app.inject({ method: 'GET', url });
      assert.equal(none.statusCode, 401, url);
      assert.deepEqual(none.json(), { success: false, error: 'Authentication required' });
      const wrong = await app.inject({ method: 'GET', url, headers: { authorization: 'Bearer nope' } });
      assert.equal(wrong.statusCode, 401, url);
      const right = await app.inject({ method: 'GET', url, headers: { authorization: 'Bearer secret' } });
      assert.equal(right.statusCode, 200, url);
    }
    const asset = await app.inject({ method: 'GET', url: '/asset' });
    assert.equal(asset.statusCode, 200, 'public routes need no token');
    await app.close();
  });

  it('needs nothing while no token is configured, and reads the token per request', async () => {
    let token: string | null = null;
    const { app } = await shellWith(routes, { token: () => token });
    assert.equal((await app.inject({ method: 'GET', url: '/api/ping' })).statusCode, 200);
    token = 'later';
    assert.equal((await app.inject({ method: 'GET', url: '/api/ping' })).statusCode, 401);
    await app.close();
  });
});
