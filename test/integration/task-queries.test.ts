/**
 * POST /api/tasks/query, GET /api/filter-options and GET /api/stats through the real server.
 * The server runs in a time zone chosen so that its local date differs from the UTC date right
 * now, which makes "today" and overdue observably local.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestServer, waitFor, type TestServer } from '../helpers/server-process.js';

const now = new Date();
// UTC+14 is a day ahead of UTC from 10:00 UTC on; UTC-12 is a day behind before 12:00 UTC.
const aheadOfUtc = now.getUTCHours() >= 10;
const TZ = aheadOfUtc ? 'Etc/GMT-14' : 'Etc/GMT+12';
const utcToday = now.toISOString().slice(0, 10);
const shift = (day: string, days: number): string =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const localToday = shift(utcToday, aheadOfUtc ? 1 : -1);

const note = (fm: string, body = ''): string => `---\n${fm.trim()}\n---\n\n${body}`;

const FILES: Record<string, string> = {
  '.obsidian/plugins/tasknotes/data.json': JSON.stringify({
    userFields: [
      { id: 'effort', displayName: 'Effort', key: 'effort', type: 'number' },
      { id: 'client', displayName: 'Client', key: 'client', type: 'text' },
    ],
  }),
  'Tasks/Write report.md': note(`
status: open
priority: high
due: ${localToday}
tags: [task, work, writing]
projects: ["[[Website]]", "[[Launch]]"]
contexts: ["@office"]
effort: 5
client: Acme
`),
  'Tasks/Fix bug.md': note(`
status: in-progress
priority: normal
due: ${shift(localToday, -3)}
tags: [task, work]
projects: ["[[Website]]"]
timeEstimate: 90
effort: 8
timeEntries:
  - startTime: 2026-01-01T10:00:00Z
    endTime: 2026-01-01T11:00:00Z
`),
  'Tasks/Plan trip.md': note(`
status: open
priority: low
scheduled: ${localToday}
tags: [task, home]
`),
  'Tasks/Old.md': note(`
status: done
priority: high
due: ${shift(localToday, -10)}
tags: [task, work, archived]
`),
  'Projects/Website.md': note(`
title: Website relaunch
status: open
tags: [task]
`),
  'Notes/not a task.md': note('title: plain note'),
};

const root = (children: unknown[], options: Record<string, unknown> = {}): Record<string, unknown> => ({
  type: 'group',
  id: 'root',
  conjunction: 'and',
  children,
  ...options,
});
let n = 0;
const cond = (property: string, operator: string, value?: unknown): Record<string, unknown> => ({
  type: 'condition',
  id: `c${++n}`,
  property,
  operator,
  value,
});
const titles = (res: { body: any }): string[] => res.body.data.tasks.map((t: { title: string }) => t.title);

describe('task queries over HTTP', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ files: FILES, env: { TZ } });
  });
  after(() => server.cleanup());

  it('filters with nested groups, sorts, and reports total, filtered and vault', async () => {
    const res = await server.request(
      'POST',
      '/api/tasks/query',
      root(
        [
          cond('archived', 'is-not-checked'),
          {
            type: 'group',
            id: 'g',
            conjunction: 'or',
            children: [cond('tags', 'contains', 'work'), cond('scheduled', 'is', 'today')],
          },
        ],
        { sortKey: 'priority', sortDirection: 'desc' },
      ),
    );
    assert.equal(res.status, 200);
    assert.deepEqual(titles(res), ['Write report', 'Fix bug', 'Plan trip']);
    assert.equal(res.body.data.total, 5);
    assert.equal(res.body.data.filtered, 3);
    assert.equal(res.body.data.vault.path, server.vault);
    assert.equal(res.body.data.tasks[0].id, 'Tasks/Write report.md');
    assert.equal(res.body.data.tasks[0].details, undefined);
  });

  it('relative dates use the server-local today', async () => {
    const res = await server.request('POST', '/api/tasks/query', root([cond('due', 'is', 'today')]));
    assert.deepEqual(titles(res), ['Write report']);
  });

  it('user fields, projects by display name and hasSubtasks', async () => {
    let res = await server.request(
      'POST',
      '/api/tasks/query',
      root([cond('user:effort', 'is-greater-than', 6)]),
    );
    assert.deepEqual(titles(res), ['Fix bug']);
    res = await server.request(
      'POST',
      '/api/tasks/query',
      root([cond('projects', 'contains', 'Website relaunch')]),
    );
    assert.deepEqual(titles(res).sort(), ['Fix bug', 'Write report']);
    res = await server.request('POST', '/api/tasks/query', root([cond('hasSubtasks', 'is-checked')]));
    assert.deepEqual(titles(res), ['Website relaunch']);
  });

  it('grouping by project or tags returns each task once and counts it once', async () => {
    for (const groupKey of ['project', 'tags']) {
      const res = await server.request('POST', '/api/tasks/query', root([], { groupKey }));
      assert.equal(res.status, 200);
      const ids = res.body.data.tasks.map((t: { id: string }) => t.id);
      assert.equal(new Set(ids).size, ids.length, groupKey);
      assert.equal(res.body.data.filtered, 5);
    }
    const res = await server.request(
      'POST',
      '/api/tasks/query',
      root([], { groupKey: 'due', sortKey: 'title' }),
    );
    assert.deepEqual(titles(res), ['Fix bug', 'Write report', 'Old', 'Plan trip', 'Website relaunch']);
  });

  it('an invalid FilterQuery is a 400 with the reason', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ type: 'group', id: 3, conjunction: 'and', children: [] }, /^Invalid FilterQuery at root: "id"/],
      [root([], { conjunction: 'xor' }), /at root: a group's "conjunction" must be "and" or "or"/],
      [
        root([cond('title', 'is', 'a'), root([cond('title', 'equals', 'x')])]),
        /^Invalid FilterQuery at root\.children\[1\]\.children\[0\]: unknown operator "equals"/,
      ],
      [
        root([cond('colour', 'is', 'red')]),
        /^Invalid FilterQuery at root\.children\[0\]: unknown property "colour"$/,
      ],
      [root([cond('title', 'is-before', 'x')]), /operator "is-before" is not valid for property "title"/],
      [root([cond('due', 'is-before', 'someday')]), /value "someday" for "due" is not a date/],
      [root([cond('user:nope', 'is', 'x')]), /unknown user field "user:nope"/],
      [root([], { sortKey: 'colour' }), /unknown sortKey "colour"/],
      [root([root([], { id: 'inner', groupKey: 'tags' })]), /"groupKey" is only allowed on the root node/],
      [root([cond('title', 'is', { a: 1 })]), /at root\.children\[0\]: value .* must be a string, a number/],
      [root([], { limit: 0 }), /at root: "limit" must be an integer of at least 1/],
      [root([root([], { offset: 2 })]), /at root\.children\[0\]: "offset" is only allowed on the root/],
      [[], /the body must be a JSON object/],
    ];
    for (const [body, message] of cases) {
      const res = await server.request('POST', '/api/tasks/query', body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.success, false);
      assert.match(res.body.error, message);
    }
  });

  it('filter-options lists statuses, values, folders and user properties', async () => {
    const res = await server.request('GET', '/api/filter-options');
    assert.equal(res.status, 200);
    const data = res.body.data;
    assert.deepEqual(
      data.statuses.map((s: { value: string }) => s.value),
      ['none', 'open', 'in-progress', 'done'],
    );
    assert.equal(data.statuses[3].isCompleted, true);
    assert.deepEqual(
      data.priorities.map((p: { weight: number }) => p.weight),
      [0, 1, 2, 3],
    );
    assert.deepEqual(data.contexts, ['@office']);
    assert.deepEqual(data.projects, ['[[Launch]]', '[[Website]]']);
    assert.deepEqual(data.folders, ['Projects', 'Tasks']);
    assert.ok(data.tags.includes('writing'));
    assert.deepEqual(
      data.userProperties.map((p: { id: string; category: string }) => [p.id, p.category]),
      [
        ['user:effort', 'numeric'],
        ['user:client', 'text'],
      ],
    );
  });

  it('stats count overdue by the local date', async () => {
    const res = await server.request('GET', '/api/stats');
    assert.equal(res.status, 200);
    // Fix bug (3 days ago) is overdue; Write report (due local today) is not; Old is done.
    assert.deepEqual(res.body.data, {
      total: 5,
      completed: 1,
      active: 4,
      overdue: 1,
      archived: 1,
      withTimeTracking: 1,
    });
  });

  it('sees an external edit on the next query', async () => {
    await writeFile(
      path.join(server.vault, 'Tasks/Plan trip.md'),
      note(`status: open\npriority: high\ntags: [task, home]\ndue: ${localToday}`),
    );
    await waitFor(async () => {
      const res = await server.request('POST', '/api/tasks/query', root([cond('due', 'is', 'today')]));
      return titles(res).length === 2;
    });
  });

  it('documents the FilterQuery in OpenAPI', async () => {
    const res = await server.request('GET', '/api/docs');
    const op = res.body.paths['/api/tasks/query'].post;
    const schema = op.requestBody.content['application/json'].schema;
    assert.ok(schema.properties.operator.enum.includes('is-on-or-after'));
    assert.ok(schema.properties.sortKey);
    assert.ok(JSON.stringify(res.body).includes('FilterNode'));
  });
});
