/**
 * Bounded work against the built server: inputs that made a request fail with 500 or keep the
 * process busy are answered with a clear 400 or a bounded result, and the server stays live.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { encodeId, startTestServer, type TestServer } from '../helpers/server-process.js';

const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');

describe('long titles', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.cleanup());

  it('shortens a title too long for a file name and keeps the full title in the note', async () => {
    for (const title of ['t'.repeat(240), '😀'.repeat(100), `${'語'.repeat(90)} tail`]) {
      const first = await server.request('POST', '/api/tasks', { title });
      assert.equal(first.status, 201, JSON.stringify(first.body));
      assert.equal(first.body.data.title, title);
      const name = path.basename(first.body.data.id);
      assert.ok(bytes(name) <= 200, `${bytes(name)} bytes: ${name}`);
      const text = await readFile(path.join(server.vault, first.body.data.id), 'utf8');
      assert.ok(text.includes(`title: ${title}`), 'the full title is in the frontmatter');
      const again = await server.request('POST', '/api/tasks', { title });
      assert.equal(again.status, 201);
      assert.equal(path.basename(again.body.data.id), name.replace(/\.md$/, '-2.md'));
      const read = await server.request('GET', `/api/tasks/${encodeId(again.body.data.id)}`);
      assert.equal(read.body.data.title, title);
    }
  });

  it('renames a note to a shortened name when PUT gives a long title', async () => {
    const created = await server.request('POST', '/api/tasks', { title: 'short' });
    const title = 'r'.repeat(300);
    const res = await server.request('PUT', `/api/tasks/${encodeId(created.body.data.id)}`, { title });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.data.title, title);
    assert.ok(bytes(path.basename(res.body.data.id)) <= 200);
  });
});
