/**
 * Body parsing: JSON whatever the content type, empty bodies, malformed JSON, text that is not
 * Unicode, the size limit.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import { shellWith } from '../../test/helpers/http-shell.js';
import { NOT_UNICODE } from '../core/well-formed.js';
import { BODY_LIMIT } from './body-parser.js';
import { defineRoute, ok } from './route.js';

const echoBody = defineRoute({
  method: 'POST',
  url: '/api/echo',
  summary: 'echo',
  tags: ['test'],
  body: Type.Unknown(),
  responses: { 200: Type.Unknown() },
  handler: async ({ body }) => ok(body),
});

describe('HTTP shell body parsing', () => {
  it('reads a JSON body with or without a JSON content type', async () => {
    const { app } = await shellWith([echoBody]);
    for (const type of ['application/json', 'text/plain', undefined]) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/echo',
        payload: '{"a":1}',
        headers: type ? { 'content-type': type } : {},
      });
      assert.equal(res.statusCode, 200, String(type));
      assert.deepEqual(res.json().data, { a: 1 });
    }
    await app.close();
  });

  it('refuses text that is not Unicode (an unpaired surrogate), in a value or a key', async () => {
    const { app } = await shellWith([echoBody]);
    for (const payload of ['{"title":"\\ud801 phantom"}', '{"a":{"\\udc00":1}}', '["x",["\\ud83d"]]']) {
      const res = await app.inject({ method: 'POST', url: '/api/echo', payload });
      assert.equal(res.statusCode, 400, payload);
      assert.deepEqual(res.json(), { success: false, error: NOT_UNICODE });
    }
    // A pair is one character: accepted.
    const pair = await app.inject({
      method: 'POST',
      url: '/api/echo',
      payload: '{"title":"\\ud83d\\ude00"}',
    });
    assert.equal(pair.statusCode, 200);
    assert.deepEqual(pair.json().data, { title: '😀' });
  });

  it('treats a POST without a body as an empty object', async () => {
    const { app } = await shellWith([echoBody]);
    const res = await app.inject({ method: 'POST', url: '/api/echo' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json().data, {});
    await app.close();
  });

  it('answers malformed JSON with 400 Invalid JSON and an oversized body with 413', async () => {
    const { app } = await shellWith([echoBody]);
    const bad = await app.inject({ method: 'POST', url: '/api/echo', payload: '{"a":' });
    assert.equal(bad.statusCode, 400);
    assert.deepEqual(bad.json(), { success: false, error: 'Invalid JSON' });
    const big = await app.inject({
      method: 'POST',
      url: '/api/echo',
      payload: JSON.stringify({ s: 'x'.repeat(BODY_LIMIT) }),
    });
    assert.equal(big.statusCode, 413);
    assert.equal(big.json().success, false);
    await app.close();
  });
});
