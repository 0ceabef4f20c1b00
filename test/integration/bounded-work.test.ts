/**
 * Bounded work against the built server: inputs that made a request fail with 500 or keep the
 * process busy are answered with a clear 400 or a bounded result, and the server stays live.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { encodeId, startTestServer, type ApiResponse, type TestServer } from '../helpers/server-process.js';

const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');

/** Longest a health check may wait while another request works: a liveness bound, not a speed goal. */
const LIVENESS_MS = 1000;

/**
 * Runs `work` while asking GET /api/health over and over (the first time at once), and returns the
 * work's answer and the slowest health answer. A server kept busy by `work` leaves health waiting:
 * each health request gives up after 5 s, so a stuck server fails the test instead of hanging it.
 */
async function whileHealthPolled(
  server: TestServer,
  work: () => Promise<ApiResponse<any>>,
): Promise<{ res: ApiResponse<any>; slowest: number }> {
  let done = false;
  let slowest = 0;
  const health = async (): Promise<void> => {
    const started = performance.now();
    const res = await fetch(`${server.url}/api/health`, { signal: AbortSignal.timeout(5000) });
    await res.text();
    assert.equal(res.status, 200);
    slowest = Math.max(slowest, performance.now() - started);
  };
  const running = work().finally(() => (done = true));
  const polling = (async () => {
    await health();
    while (!done) {
      await sleep(20);
      await health();
    }
  })();
  const [res] = await Promise.all([running, polling]);
  return { res, slowest };
}

const NESTED_QUERY = (levels: number): string =>
  '{"type":"group","conjunction":"and","children":['.repeat(levels) +
  '{"type":"condition","property":"status","operator":"is","value":"open"}' +
  ']}'.repeat(levels);
const NESTED_OBJECT = (levels: number): string => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);

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

describe('bounded work: health stays live while each request works', () => {
  let server: TestServer;
  const note = (recurrence: string, scheduled: string): string =>
    `---\ntitle: R\nstatus: open\nscheduled: ${scheduled}\nrecurrence: "${recurrence}"\ntags:\n  - task\n---\n`;
  before(async () => {
    server = await startTestServer({
      files: {
        // Written by another program: the API would refuse these rules.
        'Secondly.md': note('FREQ=SECONDLY', '1970-01-01'),
        'Never.md': note('FREQ=DAILY;INTERVAL=7;BYDAY=TU', '1970-01-05'),
        'Warm.md': note('FREQ=DAILY;INTERVAL=7;BYDAY=TU', '1970-01-05'),
        'Daily.md': note('FREQ=DAILY', '1970-01-01'),
      },
    });
  });
  after(() => server.cleanup());

  const bounded = async (
    what: string,
    work: () => Promise<ApiResponse<any>>,
    expect: (res: ApiResponse<any>) => void,
  ): Promise<void> => {
    const { res, slowest } = await whileHealthPolled(server, work);
    expect(res);
    assert.ok(slowest < LIVENESS_MS, `${what}: health waited ${Math.round(slowest)} ms`);
  };
  const isBadRequest = (pattern: RegExp) => (res: ApiResponse<any>) => {
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.match(res.body.error, pattern);
  };

  it('refuses a rule finer than daily, and bounds rules already in the vault', async () => {
    // A fresh process runs rrule unoptimised at first (many times slower on a loaded machine); the
    // bound is about the work a request asks for, so it is measured once that code is compiled.
    for (const date of ['2026-06-02', '2026-06-09']) {
      await server.request('POST', `/api/tasks/${encodeId('Warm.md')}/complete-instance`, { date });
    }
    const created = await server.request('POST', '/api/tasks', { title: 'plain' });
    const id = encodeId(created.body.data.id);
    await bounded(
      'PUT FREQ=SECONDLY',
      () =>
        server.request('PUT', `/api/tasks/${id}`, { recurrence: 'FREQ=SECONDLY', scheduled: '1970-01-01' }),
      isBadRequest(/finer than daily \(FREQ=SECONDLY\)/),
    );
    await bounded(
      'complete-instance of a FREQ=SECONDLY note',
      () => server.request('POST', `/api/tasks/${encodeId('Secondly.md')}/complete-instance`, {}),
      isBadRequest(/finer than daily/),
    );
    for (const date of ['9999-12-31', '2026-06-02', '0001-01-01']) {
      await bounded(
        `complete-instance ${date} of a never-matching rule`,
        () => server.request('POST', `/api/tasks/${encodeId('Never.md')}/complete-instance`, { date }),
        (res) => assert.ok(res.status === 200 || res.status === 400, JSON.stringify(res.body)),
      );
      await bounded(
        `complete-instance ${date} of a daily rule from 1970`,
        () => server.request('POST', `/api/tasks/${encodeId('Daily.md')}/complete-instance`, { date }),
        (res) => assert.ok(res.status === 200 || res.status === 400, JSON.stringify(res.body)),
      );
    }
    await bounded(
      'a query grouped by due date (recurring tasks due today)',
      () =>
        server.request('POST', '/api/tasks/query', {
          type: 'group',
          conjunction: 'and',
          children: [],
          groupKey: 'due',
        }),
      (res) => assert.equal(res.status, 200),
    );
  });

  it('limits NLP text to 10,000 characters', async () => {
    const text = 'call alice tomorrow at 5pm about the #project report @office '.repeat(200);
    // The parser library loads and compiles on the first NLP requests (once, 1-3 s on a loaded
    // machine); the bound is about the text, so it is measured on a warm parser.
    for (const warmUp of [
      'call alice tomorrow at 5pm about #x @y',
      text.slice(0, 10_000),
      text.slice(0, 10_000),
    ]) {
      assert.equal((await server.request('POST', '/api/nlp/parse', { text: warmUp })).status, 200);
    }
    await bounded(
      'NLP 10,001 characters',
      () => server.request('POST', '/api/nlp/parse', { text: 'x'.repeat(10_001) }),
      isBadRequest(/Text is too long \(at most 10,000 characters\)/),
    );
    await bounded(
      'NLP 10,000 characters',
      () => server.request('POST', '/api/nlp/parse', { text: text.slice(0, 10_000) }),
      (res) => assert.equal(res.status, 200),
    );
  });

  it('answers deep nesting and far relative dates with a 400 naming the problem', async () => {
    await bounded(
      'FilterQuery 5,000 deep',
      () => server.request('POST', '/api/tasks/query', NESTED_QUERY(5000)),
      isBadRequest(/nested too deeply/),
    );
    await bounded(
      'FilterQuery 40 groups deep',
      () => server.request('POST', '/api/tasks/query', NESTED_QUERY(40)),
      isBadRequest(/Invalid FilterQuery at root(\.children\[0\])+: groups are nested too deeply/),
    );
    await bounded(
      'customFrontmatter 5,000 deep',
      () =>
        server.request(
          'POST',
          '/api/tasks',
          `{"title":"deep","customFrontmatter":{"x":${NESTED_OBJECT(5000)}}}`,
        ),
      isBadRequest(/Request body is nested too deeply \(at most 100 levels\)/),
    );
    await bounded(
      'customFrontmatter 30 deep',
      () =>
        server.request(
          'POST',
          '/api/tasks',
          `{"title":"deep","customFrontmatter":{"x":${NESTED_OBJECT(30)}}}`,
        ),
      isBadRequest(/customFrontmatter is nested too deeply \(at most 16 levels\)/),
    );
    const created = await server.request('POST', '/api/tasks', { title: 'shallow' });
    await bounded(
      'PUT customFrontmatter 30 deep',
      () =>
        server.request(
          'PUT',
          `/api/tasks/${encodeId(created.body.data.id)}`,
          `{"customFrontmatter":{"x":${NESTED_OBJECT(30)}}}`,
        ),
      isBadRequest(/customFrontmatter is nested too deeply/),
    );
    await bounded(
      'query "in 99999999 days"',
      () =>
        server.request('POST', '/api/tasks/query', {
          type: 'condition',
          property: 'due',
          operator: 'is-before',
          value: 'in 99999999 days',
        }),
      isBadRequest(/is not a date/),
    );
    assert.equal(
      (await server.request('GET', '/api/tasks?limit=200')).body.data.tasks.some(
        (t: any) => t.title === 'deep',
      ),
      false,
    );
  });
});
