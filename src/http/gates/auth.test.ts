/** The auth gate: decided on the matched route, protected unless declared public. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { echoRoute, shellWith } from '../../../test/helpers/http-shell.js';
import { tokenMatches } from './auth.js';

describe('tokenMatches', () => {
  it('accepts exactly "Bearer <token>", the scheme in any case', () => {
    assert.equal(tokenMatches('Bearer abc', 'abc'), true);
    assert.equal(tokenMatches('bearer abc', 'abc'), true);
    assert.equal(tokenMatches('BEARER  abc', 'abc'), true);
    assert.equal(tokenMatches('Bearer abcd', 'abc'), false);
    assert.equal(tokenMatches('Bearer ab', 'abc'), false);
    assert.equal(tokenMatches('Bearer  abc ', 'abc'), false);
    assert.equal(tokenMatches('abc', 'abc'), false);
    assert.equal(tokenMatches('Bearerabc', 'abc'), false);
    assert.equal(tokenMatches('Basic abc', 'abc'), false);
    assert.equal(tokenMatches(undefined, 'abc'), false);
  });
});

describe('auth gate', () => {
  const routes = [
    echoRoute('/api/ping'),
    echoRoute('/settings-api/ping'),
    echoRoute('/page'),
    echoRoute('/asset', { public: true }),
  ];
  const bearer = { authorization: 'Bearer secret' };

  it('answers 401 without the token on every route not declared public', async () => {
    const { app } = await shellWith(routes, { token: () => 'secret' });
    for (const url of ['/api/ping', '/settings-api/ping', '/page']) {
      const none = await app.inject({ method: 'GET', url });
      assert.equal(none.statusCode, 401, url);
      assert.deepEqual(none.json(), { success: false, error: 'Authentication required' });
      const wrong = await app.inject({ method: 'GET', url, headers: { authorization: 'Bearer nope' } });
      assert.equal(wrong.statusCode, 401, url);
      assert.equal((await app.inject({ method: 'GET', url, headers: bearer })).statusCode, 200, url);
    }
    assert.equal((await app.inject({ method: 'GET', url: '/asset' })).statusCode, 200, 'public');
    await app.close();
  });

  it('judges a disguised path as the route that serves it', async () => {
    const { app } = await shellWith(routes, { token: () => 'secret' });
    for (const url of [
      '/%61pi/ping',
      '/%61%70%69/ping',
      '/api/p%69ng',
      '/%73ettings-api/ping',
      '/api/ping?x=/asset',
    ]) {
      const res = await app.inject({ method: 'GET', url });
      assert.equal(res.statusCode, 401, url);
      const authed = await app.inject({ method: 'GET', url, headers: bearer });
      assert.ok(authed.statusCode === 200 || authed.statusCode === 404, `${url}: ${authed.statusCode}`);
    }
    await app.close();
  });

  it('protects paths that match no route: 401 without the token, 404 with it', async () => {
    const { app } = await shellWith(routes, { token: () => 'secret' });
    for (const url of ['/api/nope', '/nope', '/assets/x.js', '//api/ping']) {
      assert.equal((await app.inject({ method: 'GET', url })).statusCode, 401, url);
      assert.equal((await app.inject({ method: 'GET', url, headers: bearer })).statusCode, 404, url);
    }
    await app.close();
  });

  it('covers routes registered directly on Fastify (e.g. by a plugin) by default', async () => {
    const { app } = await shellWith([], { token: () => 'secret', apiEnabled: () => false });
    app.post('/mcp', async () => ({ ok: true }));
    app.get('/extra', async () => ({ ok: true }));
    app.get('/open', { config: { public: true } }, async () => ({ ok: true }));
    assert.equal((await app.inject({ method: 'POST', url: '/mcp' })).statusCode, 401);
    assert.equal((await app.inject({ method: 'POST', url: '/%6dcp', headers: bearer })).statusCode, 503);
    assert.equal((await app.inject({ method: 'GET', url: '/extra' })).statusCode, 401);
    assert.equal((await app.inject({ method: 'GET', url: '/extra', headers: bearer })).statusCode, 200);
    assert.equal((await app.inject({ method: 'GET', url: '/open' })).statusCode, 200);
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
