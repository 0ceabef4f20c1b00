/** The shell's error mapping (SPEC §3), in process: unexpected errors never leak details. */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import { pino } from 'pino';
import { invalid, notFound } from '../../src/core/errors.js';
import type { AppContext } from '../../src/http/context.js';
import { defineRoute, ok } from '../../src/http/route.js';
import { buildHttpServer } from '../../src/http/server.js';

async function shellWith(routes: Parameters<typeof buildHttpServer>[0]['routes']) {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, next) {
      lines.push(String(chunk));
      next();
    },
  });
  const ctx = {} as AppContext; // these routes never touch the services
  const app = await buildHttpServer({
    ctx,
    routes,
    log: pino({ level: 'info' }, sink),
    token: () => null,
    apiEnabled: () => true,
  });
  return { app, log: () => lines.join('') };
}

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
