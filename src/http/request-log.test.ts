/** The request log: one line per request, with method, url, status and time. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { echoRoute, shellWith } from '../../test/helpers/http-shell.js';

describe('request log line', () => {
  it('writes exactly one line per request, with method, url, status and response time', async () => {
    const { app, log } = await shellWith([echoRoute('/api/ping')]);
    await app.inject({ method: 'GET', url: '/api/ping?x=1' });
    await app.inject({ method: 'GET', url: '/api/missing' });
    const lines = log()
      .split('\n')
      .filter((l) => l.length > 0)
      .map((l) => JSON.parse(l));
    const requests = lines.filter((l) => 'statusCode' in l);
    assert.equal(requests.length, 2, log());
    assert.equal(requests[0].method, 'GET');
    assert.equal(requests[0].url, '/api/ping?x=1');
    assert.equal(requests[0].statusCode, 200);
    assert.equal(typeof requests[0].responseTime, 'number');
    assert.equal(requests[1].statusCode, 404);
    assert.ok(requests.every((l) => typeof l.reqId === 'string'));
    await app.close();
  });
});
