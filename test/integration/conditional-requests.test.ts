/**
 * ETag, If-None-Match and If-Match on the task routes, against the real server: a read names the
 * note's version, a stale write is a 412 with the current task and leaves the note's bytes as they
 * were, and of concurrent writes from one version exactly one wins.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { encodeId, startTestServer, type TestServer } from '../helpers/server-process.js';

const TASK = 'Tasks/Report.md';
const DAILY = 'Tasks/Daily.md';
const FILES = {
  [TASK]: '---\nstatus: open\npriority: normal\ntags: [task]\n---\n\nBody\n',
  [DAILY]:
    '---\nstatus: open\nscheduled: 2026-01-15\nrecurrence: DTSTART:20260115;FREQ=DAILY\ntags: [task]\n---\n',
};
const url = (id: string, suffix = ''): string => `/api/tasks/${encodeId(id)}${suffix}`;
const etagOf = (text: string): string => `"${createHash('sha1').update(text, 'utf8').digest('base64')}"`;

describe('conditional requests on task routes', () => {
  let server: TestServer;
  const read = (id: string) => readFile(path.join(server.vault, id), 'utf8');
  before(async () => {
    server = await startTestServer({ files: FILES });
  });
  after(() => server.cleanup());

  it('GET carries the strong ETag of the note bytes; If-None-Match answers 304', async () => {
    const res = await server.request('GET', url(TASK));
    const etag = res.headers.get('etag');
    assert.equal(etag, etagOf(FILES[TASK]));
    for (const inm of [etag!, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await server.request('GET', url(TASK), undefined, { 'If-None-Match': inm });
      assert.equal(again.status, 304, inm);
      assert.equal(again.text, '');
      assert.equal(again.headers.get('etag'), etag);
    }
    const changed = await server.request('GET', url(TASK), undefined, { 'If-None-Match': '"old"' });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.data.details, 'Body');
  });

  it('every task answer carries the ETag of what it returns', async () => {
    const created = await server.request('POST', '/api/tasks', { title: 'Fresh' });
    assert.equal(created.status, 201);
    assert.equal(created.headers.get('etag'), etagOf(await read(created.body.data.path)));
    const updated = await server.request('PUT', url(TASK), { priority: 'high' });
    assert.equal(updated.headers.get('etag'), etagOf(await read(TASK)));
    const started = await server.request('POST', url(TASK, '/time/start'));
    assert.equal(started.headers.get('etag'), etagOf(await read(TASK)));
    await server.request('POST', url(TASK, '/time/stop'));
  });

  it('PUT with a stale If-Match is a 412 with the current task, and the note stays as it was', async () => {
    const current = (await server.request('GET', url(TASK))).headers.get('etag')!;
    const ok = await server.request('PUT', url(TASK), { priority: 'low' }, { 'If-Match': current });
    assert.equal(ok.status, 200, ok.text);
    const fresh = ok.headers.get('etag')!;
    assert.notEqual(fresh, current);
    const bytes = await read(TASK);
    const stale = await server.request('PUT', url(TASK), { priority: 'none' }, { 'If-Match': current });
    assert.equal(stale.status, 412);
    assert.equal(stale.body.success, false);
    assert.match(stale.body.error, /^Precondition failed/);
    assert.equal(stale.body.data.task.priority, 'low');
    assert.equal(stale.body.data.task.details, 'Body');
    assert.equal(stale.headers.get('etag'), fresh);
    assert.equal(await read(TASK), bytes);
  });

  it('DELETE, toggle-status, archive and the instance routes refuse a stale version', async () => {
    const stale = '"stale"';
    const before = { task: await read(TASK), daily: await read(DAILY) };
    const attempts: Array<[string, string, unknown]> = [
      ['DELETE', url(TASK), undefined],
      ['POST', url(TASK, '/toggle-status'), undefined],
      ['POST', url(TASK, '/archive'), undefined],
      ['POST', url(DAILY, '/complete-instance'), { date: '2026-01-15' }],
      ['POST', url(DAILY, '/skip-instance'), { date: '2026-01-16' }],
      ['POST', url(DAILY, '/unskip-instance'), { date: '2026-01-16' }],
    ];
    for (const [method, path, body] of attempts) {
      const res = await server.request(method, path, body, { 'If-Match': stale });
      assert.equal(res.status, 412, `${method} ${path}`);
      assert.ok(res.body.data.task.path);
    }
    assert.deepEqual({ task: await read(TASK), daily: await read(DAILY) }, before);

    const daily = (await server.request('GET', url(DAILY))).headers.get('etag')!;
    const done = await server.request(
      'POST',
      url(DAILY, '/complete-instance'),
      { date: '2026-01-15' },
      {
        'If-Match': daily,
      },
    );
    assert.equal(done.status, 200, done.text);
    assert.deepEqual(done.body.data.complete_instances, ['2026-01-15']);
    assert.equal(done.headers.get('etag'), etagOf(await read(DAILY)));
  });

  it('an edit by another program counts at once, even before the watcher reports it', async () => {
    const etag = (await server.request('GET', url(TASK))).headers.get('etag')!;
    const edited = (await read(TASK)).replace('status: open', 'status: in-progress');
    await writeFile(path.join(server.vault, TASK), edited);
    const res = await server.request('POST', url(TASK, '/toggle-status'), undefined, { 'If-Match': etag });
    assert.equal(res.status, 412);
    assert.equal(res.body.data.task.status, 'in-progress');
    assert.equal(await read(TASK), edited);
  });

  it('of concurrent PUTs from one version exactly one is written', async () => {
    const etag = (await server.request('GET', url(TASK))).headers.get('etag')!;
    const titles = ['one', 'two', 'three', 'four', 'five', 'six'];
    const results = await Promise.all(
      titles.map((t) => server.request('PUT', url(TASK), { contexts: [t] }, { 'If-Match': etag })),
    );
    assert.deepEqual(results.map((r) => r.status).sort(), [200, 412, 412, 412, 412, 412]);
    const winner = results.find((r) => r.status === 200)!;
    assert.deepEqual((await server.request('GET', url(TASK))).body.data.contexts, winner.body.data.contexts);
    for (const r of results.filter((x) => x.status === 412)) {
      assert.deepEqual(r.body.data.task.contexts, winner.body.data.contexts);
    }
  });

  it('If-Match: * writes whatever the version', async () => {
    const res = await server.request('DELETE', url(TASK), undefined, { 'If-Match': '*' });
    assert.equal(res.status, 200);
  });
});
