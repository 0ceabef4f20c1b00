/** The HTTP shell of docs/api-decisions.md against the real server process. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server-process.js';

describe('HTTP shell', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.cleanup());

  it('answers health with vault, version and interface version', async () => {
    const res = await server.request('GET', '/api/health');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(res.body.success, true);
    assert.equal(res.body.data.status, 'ok');
    assert.equal(res.body.data.interfaceVersion, '4.13.6');
    assert.equal(res.body.data.vault.path, server.vault);
    assert.match(res.body.data.timestamp, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.match(res.headers.get('x-request-id') ?? '', /.+/);
  });

  it('answers unknown routes and methods with 404 Not found', async () => {
    for (const [method, path] of [
      ['GET', '/api/nope'],
      ['PATCH', '/api/health'],
      ['DELETE', '/api/health'],
      ['GET', '/nope'],
    ] as const) {
      const res = await server.request(method, path);
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.deepEqual(res.body, { success: false, error: 'Not found' });
    }
  });

  it('rejects malformed JSON with 400 Invalid JSON', async () => {
    const res = await server.request('POST', '/api/webhooks', '{"url":');
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { success: false, error: 'Invalid JSON' });
  });

  it('rejects bodies over 1 MiB with 413 in the envelope', async () => {
    const big = JSON.stringify({ text: 'x'.repeat(1024 * 1024 + 10) });
    const res = await server.request('POST', '/api/nlp/parse', big);
    assert.equal(res.status, 413);
    assert.equal(res.body.success, false);
    assert.match(res.body.error, /too large/);
  });

  it('allows loopback origins and refuses others with 403', async () => {
    const okRes = await server.request('GET', '/api/health', undefined, { origin: 'http://localhost:3000' });
    assert.equal(okRes.status, 200);
    assert.equal(okRes.headers.get('access-control-allow-origin'), 'http://localhost:3000');
    for (const origin of ['http://127.0.0.1:9', 'http://[::1]:8080']) {
      const r = await server.request('GET', '/api/health', undefined, { origin });
      assert.equal(r.status, 200, origin);
    }
    for (const origin of ['https://evil.example', 'null', 'file://x', 'http://localhost.evil.com']) {
      const bad = await server.request('GET', '/api/health', undefined, { origin });
      assert.equal(bad.status, 403, origin);
      assert.deepEqual(bad.body, { success: false, error: 'CORS origin is not allowed' });
    }
  });

  it('answers OPTIONS preflight without auth', async () => {
    const res = await server.request('OPTIONS', '/api/tasks', undefined, {
      origin: 'http://localhost:5173',
      'access-control-request-method': 'POST',
    });
    assert.ok(res.status === 204 || res.status === 200);
    assert.match(res.headers.get('access-control-allow-methods') ?? '', /PUT/);
  });
});

describe('bearer token auth', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ token: 's3cret-token' });
  });
  after(() => server.cleanup());

  it('requires the token on every /api route, health and docs included', async () => {
    for (const path of ['/api/health', '/api/docs', '/api/tasks', '/api/unknown']) {
      const res = await server.request('GET', path);
      assert.equal(res.status, 401, path);
      assert.deepEqual(res.body, { success: false, error: 'Authentication required' });
    }
    const wrong = await server.request('GET', '/api/health', undefined, { authorization: 'Bearer nope' });
    assert.equal(wrong.status, 401);
    const scheme = await server.request('GET', '/api/health', undefined, { authorization: 's3cret-token' });
    assert.equal(scheme.status, 401);
    const good = await server.request('GET', '/api/health', undefined, {
      authorization: 'Bearer s3cret-token',
    });
    assert.equal(good.status, 200);
  });

  it('never writes the token to the log', async () => {
    await server.request('GET', '/api/health', undefined, { authorization: 'Bearer s3cret-token' });
    assert.ok(!server.stderr().includes('s3cret-token'));
  });
});

describe('API-enabled switch', () => {
  it('answers 503 on /api/* while the HTTP API is switched off in settings', async () => {
    const { tempDir, writeFiles } = await import('../helpers/temp.js');
    const data = await tempDir('taskdown-data-');
    await writeFiles(data.dir, { 'settings.json': JSON.stringify({ version: 1, apiEnabled: false }) });
    const server = await startTestServer({ dataDir: data.dir });
    try {
      for (const path of ['/api/health', '/api/tasks', '/api/docs']) {
        const res = await server.request('GET', path);
        assert.equal(res.status, 503, path);
        assert.deepEqual(res.body, { success: false, error: 'HTTP API is disabled' });
      }
    } finally {
      await server.cleanup();
      await data.cleanup();
    }
  });
});
