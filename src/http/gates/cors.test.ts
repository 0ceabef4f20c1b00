/** The CORS gate and preflight. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { echoRoute, shellWith } from '../../../test/helpers/http-shell.js';

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
