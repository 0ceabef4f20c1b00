/** The shell's error mapping, in process: unexpected errors never leak details. */
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import { shellWith } from '../../test/helpers/http-shell.js';
import { DomainError, invalid, notFound } from '../core/errors.js';
import { defineRoute, ok } from './route.js';
import { CONNECTIONS_CHECK_INTERVAL_MS, HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from './server.js';

describe('HTTP shell error mapping', () => {
  it('answers an unexpected error with 500 Internal server error and logs the details only', async () => {
    const { app, log } = await shellWith([
      defineRoute({
        method: 'GET',
        url: '/api/boom',
        summary: 'throws',
        tags: ['test'],
        responses: { 200: Type.Null() },
        handler: async () => {
          throw new Error('disk exploded at /secret/path');
        },
      }),
    ]);
    const res = await app.inject({ method: 'GET', url: '/api/boom' });
    assert.equal(res.statusCode, 500);
    assert.deepEqual(res.json(), { success: false, error: 'Internal server error' });
    assert.ok(!res.body.includes('/secret/path'), 'no detail in the response');
    assert.match(log(), /disk exploded at \/secret\/path/, 'the detail is in the log');
    await app.close();
  });

  it('answers a domain error of 503 with its message, logged in one line without a stack', async () => {
    const { app, log } = await shellWith([
      defineRoute({
        method: 'POST',
        url: '/api/refused',
        summary: 'unavailable',
        tags: ['test'],
        responses: { 200: Type.Null() },
        handler: async () => {
          throw new DomainError('UNAVAILABLE', 'the vault folder /v is gone (moved or unmounted)');
        },
      }),
    ]);
    const res = await app.inject({ method: 'POST', url: '/api/refused' });
    assert.equal(res.statusCode, 503);
    assert.deepEqual(res.json(), {
      success: false,
      error: 'the vault folder /v is gone (moved or unmounted)',
    });
    const line = log()
      .split('\n')
      .find((l) => l.includes('request refused'));
    assert.ok(line, log());
    assert.equal(JSON.parse(line).level, 40);
    assert.match(line, /the vault folder \/v is gone/);
    assert.doesNotMatch(log(), /"stack"/);
    await app.close();
  });

  it('maps domain error codes to statuses with their messages', async () => {
    const { app } = await shellWith([
      defineRoute({
        method: 'GET',
        url: '/api/missing',
        summary: 'not found',
        tags: ['test'],
        responses: { 200: Type.Null() },
        handler: async () => {
          throw notFound('Task not found');
        },
      }),
      defineRoute({
        method: 'POST',
        url: '/api/typed',
        summary: 'typed body',
        tags: ['test'],
        body: Type.Object({ n: Type.Number({ errorMessage: 'n must be a number of minutes' }) }),
        responses: { 200: Type.Null() },
        handler: async ({ body }) => {
          if (body.n < 0) throw invalid('n must not be negative');
          return ok(null);
        },
      }),
    ]);
    const missing = await app.inject({ method: 'GET', url: '/api/missing' });
    assert.equal(missing.statusCode, 404);
    assert.deepEqual(missing.json(), { success: false, error: 'Task not found' });
    const wrongType = await app.inject({ method: 'POST', url: '/api/typed', payload: '{"n":"5"}' });
    assert.equal(wrongType.statusCode, 400, 'bodies are not coerced');
    assert.deepEqual(wrongType.json(), { success: false, error: 'n must be a number of minutes' });
    const negative = await app.inject({ method: 'POST', url: '/api/typed', payload: '{"n":-1}' });
    assert.deepEqual(negative.json(), { success: false, error: 'n must not be negative' });
    await app.close();
  });
});

describe('HTTP shell unknown routes', () => {
  it('answers an unknown path or method with 404 Not found in the envelope', async () => {
    const { app } = await shellWith([
      defineRoute({
        method: 'GET',
        url: '/api/known',
        summary: 'known',
        tags: ['test'],
        responses: { 200: Type.Null() },
        handler: async () => ok(null),
      }),
    ]);
    for (const [method, url] of [
      ['GET', '/api/unknown'],
      ['DELETE', '/api/known'],
      ['GET', '/nope'],
    ] as const) {
      const res = await app.inject({ method, url });
      assert.equal(res.statusCode, 404, `${method} ${url}`);
      assert.deepEqual(res.json(), { success: false, error: 'Not found' });
    }
    await app.close();
  });
});

describe('HTTP shell server limits', () => {
  it('bounds the time to receive a request and its headers; headers stay within 16 KiB', async () => {
    const { app } = await shellWith([]);
    assert.equal(app.server.requestTimeout, REQUEST_TIMEOUT_MS);
    assert.equal(app.server.headersTimeout, HEADERS_TIMEOUT_MS);
    assert.ok(HEADERS_TIMEOUT_MS <= REQUEST_TIMEOUT_MS);
    assert.equal(http.maxHeaderSize, 16 * 1024);
    assert.ok(CONNECTIONS_CHECK_INTERVAL_MS <= 1_000);
    await app.close();
  });

  it('closes a connection whose headers never end once the header time is up, not at the next 30 s check', async () => {
    // Shortened limits: the headers deadline 400 ms, looked at every 100 ms (Node's own look
    // would come after 30 s).
    const { app } = await shellWith([], {
      limits: { headersTimeoutMs: 400, requestTimeoutMs: 800, checkIntervalMs: 100 },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as net.AddressInfo;
    const socket = net.connect(port, '127.0.0.1');
    const started = performance.now();
    let answer = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
    socket.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    await new Promise((resolve) => socket.once('close', resolve));
    const waited = performance.now() - started;
    assert.ok(waited >= 300 && waited < 5_000, `closed after ${Math.round(waited)} ms`);
    assert.match(answer, /^HTTP\/1\.1 408 /);
    await app.close();
  });
});
