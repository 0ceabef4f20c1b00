/** The CORS gate and preflight. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import { echoRoute, shellWith } from '../../../test/helpers/http-shell.js';
import { defineRoute, ok } from '../route.js';

describe('CORS gate', () => {
  it('answers loopback origins with their origin and refuses foreign ones with 403', async () => {
    const { app } = await shellWith([echoRoute('/api/ping')]);
    for (const origin of ['http://localhost:3000', 'http://127.0.0.1:9', 'http://[::1]:8080']) {
      const res = await app.inject({ method: 'GET', url: '/api/ping', headers: { origin } });
      assert.equal(res.statusCode, 200, origin);
      assert.equal(res.headers['access-control-allow-origin'], origin);
      assert.equal(res.headers.vary, 'Origin');
    }
    for (const origin of ['https://evil.example', 'null', 'file://x', 'http://localhost.evil.com']) {
      const res = await app.inject({ method: 'GET', url: '/api/ping', headers: { origin } });
      assert.equal(res.statusCode, 403, origin);
      assert.deepEqual(res.json(), { success: false, error: 'CORS origin is not allowed' });
    }
    await app.close();
  });

  it('lets a page resume an event stream and speak MCP after initialize', async () => {
    const { app } = await shellWith([echoRoute('/api/ping')]);
    const res = await app.inject({
      method: 'OPTIONS',
      url: '/api/ping',
      headers: {
        origin: 'http://localhost:3000',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type,last-event-id,mcp-protocol-version',
      },
    });
    assert.equal(res.statusCode, 204);
    const allowed = String(res.headers['access-control-allow-headers']).toLowerCase().split(/,\s*/);
    for (const header of ['authorization', 'content-type', 'last-event-id', 'mcp-protocol-version']) {
      assert.ok(allowed.includes(header), header);
    }
    await app.close();
  });

  it('trusts an origin equal to Host only for a host the Host check accepts', async () => {
    const { app } = await shellWith([echoRoute('/api/ping')]);
    const rebinding = await app.inject({
      method: 'GET',
      url: '/api/ping',
      headers: { host: 'evil.example.com:8080', origin: 'http://evil.example.com:8080' },
    });
    assert.equal(rebinding.statusCode, 403);
    assert.deepEqual(rebinding.json(), { success: false, error: 'Host not allowed' });
    const own = await app.inject({
      method: 'GET',
      url: '/api/ping',
      headers: { host: 'localhost:8080', origin: 'http://localhost:8080' },
    });
    assert.equal(own.statusCode, 200);
    await app.close();
  });

  it('refuses an unsafe cross-site request that carries no Origin, whatever its content type', async () => {
    const { app } = await shellWith([
      defineRoute({
        method: 'POST',
        url: '/api/write',
        summary: 'write',
        tags: ['test'],
        body: Type.Unknown(),
        responses: { 200: Type.Null() },
        handler: async () => {
          writes++;
          return ok(null);
        },
      }),
      echoRoute('/page', { public: true }),
    ]);
    let writes = 0;
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/write',
        payload: '{}',
        headers: { 'content-type': type, 'sec-fetch-site': 'cross-site' },
      });
      assert.equal(res.statusCode, 403, type);
    }
    assert.equal(writes, 0);
    const link = await app.inject({
      method: 'GET',
      url: '/page',
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    assert.equal(link.statusCode, 200, 'a link from another site still opens a page');
    await app.close();
  });

  it('answers a preflight with 204 and the allowed methods, without auth', async () => {
    const { app } = await shellWith([echoRoute('/api/ping')], { token: () => 'secret' });
    const res = await app.inject({
      method: 'OPTIONS',
      url: '/api/ping',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'PUT' },
    });
    assert.equal(res.statusCode, 204);
    assert.match(String(res.headers['access-control-allow-methods']), /PUT/);
    assert.match(String(res.headers['access-control-allow-headers']), /Authorization/);
    await app.close();
  });
});
