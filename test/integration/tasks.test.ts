/** Task routes against the real server process (the TaskNotes plugin, docs/api-decisions.md). */
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { encodeId, startTestServer, type TestServer } from '../helpers/server-process.js';

const ALPHA = `---
# a comment that must survive
title: Alpha
status: open
due: 2025-01-15
unknown: kept
tags:
  - task
---

Alpha body
`;

/** User fields whose text YAML reads as another spelling of the same value. */
const KEPT = `---
tags:
- task
status: open
zip: 02134
phone: +4930123
flag: True
where: a place
  on two lines
---
Body
`;

const taskPath = (id: string) => `/api/tasks/${encodeId(id)}`;

describe('task routes', () => {
  let server: TestServer;
  before(async () => {
    const files: Record<string, string> = {
      'TaskNotes/Tasks/Alpha.md': ALPHA,
      'Broken.md': '---\ntags: [task\nstatus: : :\n---\n',
      'Plain.md': 'no frontmatter\n',
    };
    for (let i = 0; i < 5; i++) files[`Bulk/T${i}.md`] = `---\ntags: [task]\nstatus: open\n---\n`;
    files['Kept.md'] = KEPT;
    // A flow list continued at column 0: readable, but not by the library that edits YAML.
    files['Odd.md'] = '---\ntags: [task,\nodd]\nstatus: open\n---\n';
    server = await startTestServer({ files });
  });
  after(() => server.cleanup());

  it('lists with pagination, sorted by path, without details', async () => {
    const res = await server.request('GET', '/api/tasks?offset=1&limit=2abc');
    assert.equal(res.status, 200);
    const data = res.body.data;
    assert.deepEqual(
      data.tasks.map((t: { id: string }) => t.id),
      ['Bulk/T1.md', 'Bulk/T2.md'],
    );
    assert.deepEqual(data.pagination, { total: 8, offset: 1, limit: 2, hasMore: true });
    assert.deepEqual(data.vault, { name: path.basename(server.vault), path: server.vault });
    assert.equal(data.note, 'For filtering and advanced queries, use POST /api/tasks/query');
    assert.equal(data.tasks[0].details, undefined);
    const defaults = await server.request('GET', '/api/tasks?offset=-3&limit=0');
    assert.deepEqual(defaults.body.data.pagination, { total: 8, offset: 0, limit: 50, hasMore: false });
    const capped = await server.request('GET', '/api/tasks?limit=999');
    assert.equal(capped.body.data.pagination.limit, 200);
  });

  it('GET /api/tasks filters through the query engine; a bad value is a 400 naming the parameter', async () => {
    const open = await server.request('GET', '/api/tasks?status=open&limit=2&unknown=ignored');
    assert.equal(open.status, 200);
    assert.deepEqual(
      open.body.data.tasks.map((t: { id: string }) => t.id),
      ['Bulk/T0.md', 'Bulk/T1.md'],
    );
    assert.deepEqual(open.body.data.pagination, { total: 8, offset: 0, limit: 2, hasMore: true });
    const due = await server.request('GET', '/api/tasks?due_before=2025-01-16');
    assert.deepEqual(
      due.body.data.tasks.map((t: { id: string }) => t.id),
      ['TaskNotes/Tasks/Alpha.md'],
    );
    for (const [q, param] of [
      ['sort=', 'sort'],
      ['scheduled_before=x', 'scheduled_before'],
      ['completed=maybe', 'completed'],
    ]) {
      const res = await server.request('GET', `/api/tasks?${q}`);
      assert.equal(res.status, 400, q);
      assert.equal(res.body.success, false);
      assert.match(res.body.error, new RegExp(`^Invalid query parameter "${param}": `));
    }
  });

  it('skips a note with broken YAML and logs a warning', async () => {
    const list = await server.request('GET', '/api/tasks?limit=200');
    assert.ok(!list.body.data.tasks.some((t: { id: string }) => t.id === 'Broken.md'));
    assert.match(server.stderr(), /Broken\.md/);
    assert.equal((await server.request('GET', taskPath('Broken.md'))).status, 404);
  });

  it('gets one task with details; 404 and 400 for missing and unsafe ids', async () => {
    const res = await server.request('GET', taskPath('TaskNotes/Tasks/Alpha.md'));
    assert.equal(res.status, 200);
    assert.equal(res.body.data.id, 'TaskNotes/Tasks/Alpha.md');
    assert.equal(res.body.data.details, 'Alpha body');
    assert.equal(res.body.data.due, '2025-01-15');
    assert.equal(res.body.data.isBlocked, false);
    for (const id of ['Nope.md', 'Plain.md', 'query']) {
      const miss = await server.request('GET', taskPath(id));
      assert.deepEqual([miss.status, miss.body], [404, { success: false, error: 'Task not found' }], id);
    }
    const dataDirInVault = path.relative(server.vault, server.dataDir).startsWith('..') ? null : 'x';
    const unsafe = ['../outside.md', '/etc/passwd', '.obsidian/app.md', 'a/../../b.md'];
    if (dataDirInVault) unsafe.push(`${path.relative(server.vault, server.dataDir)}/settings.json`);
    for (const id of unsafe) {
      const bad = await server.request('GET', taskPath(id));
      assert.equal(bad.status, 400, id);
      assert.equal(bad.body.success, false);
    }
    assert.equal((await server.request('GET', '/api/tasks/..%2F..%2Fetc%2Fpasswd')).status, 400);
  });

  it('creates a task: 201, the reference file layout, title required', async () => {
    const res = await server.request('POST', '/api/tasks', {
      title: 'Review docs',
      priority: 'high',
      contexts: ['@office'],
      details: 'Body\r\ntext',
    });
    assert.equal(res.status, 201);
    const task = res.body.data;
    assert.equal(task.id, 'TaskNotes/Tasks/Review docs.md');
    assert.equal(task.path, task.id);
    assert.equal(task.details, 'Body\ntext');
    assert.deepEqual(task.tags, ['task']);
    const text = await readFile(path.join(server.vault, task.path), 'utf8');
    assert.match(
      text,
      /^---\nstatus: open\npriority: high\nscheduled: \d{4}-\d\d-\d\d\ncontexts:\n {2}- "@office"\n/,
    );
    assert.match(text, /tags:\n {2}- task\n---\n\nBody\ntext\n$/);
    for (const body of [{}, { title: '  ' }, { title: 5 }, []]) {
      const bad = await server.request('POST', '/api/tasks', body);
      assert.deepEqual([bad.status, bad.body], [400, { success: false, error: 'Title is required' }]);
    }
  });

  it('updates: keeps comments/unknown keys, deletes with null, keeps the task tag, id is the new path', async () => {
    const id = 'TaskNotes/Tasks/Alpha.md';
    const res = await server.request('PUT', taskPath(id), { due: null, tags: ['work'], contexts: ['@home'] });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data.tags, ['task', 'work']);
    assert.equal(res.body.data.due, undefined);
    const text = await readFile(path.join(server.vault, id), 'utf8');
    assert.match(text, /^---\n# a comment that must survive\ntitle: Alpha\n/);
    assert.match(text, /unknown: kept/);
    assert.doesNotMatch(text, /due:/);
    assert.match(text, /\n---\n\nAlpha body\n$/);

    const renamed = await server.request('PUT', taskPath(id), { title: 'Alpha: renamed' });
    assert.equal(renamed.body.data.id, 'TaskNotes/Tasks/Alpha renamed.md');
    assert.equal(renamed.body.data.title, 'Alpha: renamed');
    const again = await server.request('GET', taskPath('TaskNotes/Tasks/Alpha renamed.md'));
    assert.equal(again.body.data.title, 'Alpha: renamed');
    assert.equal((await server.request('GET', taskPath(id))).status, 404);
  });

  it('rewrites only the changed key of a note, keeping the exact text of every other one', async () => {
    const res = await server.request('PUT', taskPath('Kept.md'), { status: 'done', priority: 'high' });
    assert.equal(res.status, 200);
    const text = await readFile(path.join(server.vault, 'Kept.md'), 'utf8');
    const expected = KEPT.replace('status: open', 'status: done').replace(
      'on two lines\n',
      // completedDate is the day the server marks it done; the key is new, so it is appended.
      `on two lines\npriority: high\ncompletedDate: ${res.body.data.completedDate}\n`,
    );
    assert.equal(text.replace(/\ndateModified: .*\n/, '\n'), expected);
  });

  it('refuses, changing nothing, a write to frontmatter it cannot edit', async () => {
    const res = await server.request('PUT', taskPath('Odd.md'), { status: 'done' });
    assert.equal(res.status, 400);
    assert.match(res.body.error, /^Odd\.md: .+; nothing was written$/);
    const text = await readFile(path.join(server.vault, 'Odd.md'), 'utf8');
    assert.equal(text, '---\ntags: [task,\nodd]\nstatus: open\n---\n');
  });

  it('rejects a PUT field of the wrong type naming the field, changing nothing', async () => {
    const id = 'Bulk/T0.md';
    const before = await readFile(path.join(server.vault, id), 'utf8');
    for (const [field, value] of [
      ['timeEstimate', '5'],
      ['tags', 'x'],
      ['archived', 'yes'],
      ['due', 5],
    ] as const) {
      const res = await server.request('PUT', taskPath(id), { [field]: value });
      assert.equal(res.status, 400, field);
      assert.match(res.body.error, new RegExp(field));
    }
    assert.equal(await readFile(path.join(server.vault, id), 'utf8'), before);
    assert.equal((await server.request('PUT', taskPath('Nope.md'), { priority: 'low' })).status, 404);
  });

  it('toggles status and archive', async () => {
    const id = 'Bulk/T1.md';
    const done = await server.request('POST', `${taskPath(id)}/toggle-status`);
    assert.equal(done.status, 200);
    assert.equal(done.body.data.status, 'done');
    assert.match(done.body.data.completedDate, /^\d{4}-\d\d-\d\d$/);
    const open = await server.request('POST', `${taskPath(id)}/toggle-status`);
    assert.equal(open.body.data.status, 'open');
    assert.equal(open.body.data.completedDate, undefined);
    const archived = await server.request('POST', `${taskPath(id)}/archive`);
    assert.equal(archived.body.data.archived, true);
    assert.deepEqual(archived.body.data.tags, ['task', 'archived']);
    const back = await server.request('POST', `${taskPath(id)}/archive`);
    assert.equal(back.body.data.archived, false);
    assert.equal((await server.request('POST', `${taskPath('Nope.md')}/archive`)).status, 404);
  });

  it('deletes a task', async () => {
    const res = await server.request('DELETE', taskPath('Bulk/T4.md'));
    assert.deepEqual(
      [res.status, res.body],
      [200, { success: true, data: { message: 'Task deleted successfully' } }],
    );
    assert.equal((await server.request('GET', taskPath('Bulk/T4.md'))).status, 404);
    assert.equal((await server.request('DELETE', taskPath('Bulk/T4.md'))).status, 404);
  });

  it('50 concurrent PUTs to one task lose no update and leave a valid note', async () => {
    const id = 'Bulk/T2.md';
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        server.request('PUT', taskPath(id), { customFrontmatter: { [`k${i}`]: i } }),
      ),
    );
    assert.ok(results.every((r) => r.status === 200));
    const text = await readFile(path.join(server.vault, id), 'utf8');
    for (let i = 0; i < 50; i++) assert.match(text, new RegExp(`\\nk${i}: ${i}\\n`));
    const res = await server.request('GET', taskPath(id));
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data.tags, ['task']);
  });

  it('sees an edit by another program within a second', async () => {
    const id = 'Bulk/T3.md';
    const started = Date.now();
    await writeFile(
      path.join(server.vault, id),
      '---\ntags: [task]\nstatus: in-progress\npriority: high\n---\n',
    );
    await writeFile(path.join(server.vault, 'External.md'), '---\ntags: [task]\n---\nfrom outside\n');
    let seen = false;
    while (Date.now() - started < 1000) {
      const [a, b] = await Promise.all([
        server.request('GET', taskPath(id)),
        server.request('GET', taskPath('External.md')),
      ]);
      if (a.body.data?.priority === 'high' && b.status === 200 && b.body.data.details === 'from outside') {
        seen = true;
        break;
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    assert.ok(seen, 'external edit not visible within 1 s');
  });
});
