/**
 * The requests that agents in the wild send, replayed against the real server with the answers
 * they expect: the published TaskNotes agent skills (Python scripts calling `GET /api/tasks` with
 * `status`, `project`, `priority`, `limit` and `overdue=true`) and the `tn` CLI (`tn list` sends
 * `completed=false&limit=20`, `--overdue` adds `due_before=<now as an ISO instant>`, `--filter`
 * posts a FilterQuery whose nested groups have no id).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server-process.js';

const pad = (n: number): string => String(n).padStart(2, '0');
/** The local calendar day `days` from today (the server runs in this process's time zone). */
function localDay(days: number): string {
  const d = new Date();
  d.setDate(d.getDate() + days);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

const note = (fm: string): string => `---\n${fm.trim()}\n---\n`;

const FILES: Record<string, string> = {
  'Tasks/Write report.md': note(`
status: open
priority: high
due: ${localDay(-1)}
projects: ["[[Website]]"]
tags: [task, work]
`),
  'Tasks/Fix bug.md': note(`
status: in-progress
priority: normal
due: ${localDay(2)}
projects: ["[[Website]]"]
tags: [task, work, urgent]
`),
  'Tasks/Plan trip.md': note(`
status: open
priority: low
scheduled: ${localDay(0)}
tags: [task, home]
`),
  'Tasks/Old.md': note(`
status: done
priority: high
due: ${localDay(-10)}
tags: [task, work]
`),
  'Website.md': note(`
title: Website relaunch
status: open
tags: [task]
`),
};

const titles = (res: { body: any }): string[] => res.body.data.tasks.map((t: { title: string }) => t.title);

describe('requests of published agent skills and the tn CLI', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ files: FILES });
  });
  after(() => server.cleanup());

  const list = async (query: string): Promise<string[]> => {
    const res = await server.request('GET', `/api/tasks?${query}`);
    assert.equal(res.status, 200, `${query}: ${res.text}`);
    return titles(res);
  };

  it('skill "list --status open" / "--priority high" / "--project Website"', async () => {
    assert.deepEqual(await list('status=open'), ['Plan trip', 'Write report', 'Website relaunch']);
    assert.deepEqual(await list('priority=high'), ['Old', 'Write report']);
    assert.deepEqual(await list('project=Website'), ['Fix bug', 'Write report']);
    // The project note's title is also its display name.
    assert.deepEqual(await list('project=Website%20relaunch'), ['Fix bug', 'Write report']);
  });

  it('skill "list --overdue" and "list --status open --limit 1"', async () => {
    assert.deepEqual(await list('overdue=true'), ['Write report']);
    const res = await server.request('GET', '/api/tasks?status=open&limit=1');
    assert.deepEqual(titles(res), ['Plan trip']);
    assert.deepEqual(res.body.data.pagination, { total: 3, offset: 0, limit: 1, hasMore: true });
  });

  it('tn list, tn list --completed, tn list --overdue', async () => {
    assert.deepEqual(await list('completed=false&limit=20'), [
      'Fix bug',
      'Plan trip',
      'Write report',
      'Website relaunch',
    ]);
    assert.deepEqual(await list('completed=true&limit=20'), ['Old']);
    const now = encodeURIComponent(new Date().toISOString());
    assert.deepEqual(await list(`due_before=${now}&completed=false&limit=20`), ['Write report']);
  });

  it('tn list --filter "(due:before:… OR tags:urgent) AND priority:high": nested groups without id', async () => {
    const stamp = Date.now();
    const query = {
      type: 'group',
      id: `root_${stamp}`,
      conjunction: 'and',
      children: [
        {
          type: 'group',
          conjunction: 'or',
          children: [
            {
              type: 'condition',
              id: `cond_${stamp}_a`,
              property: 'due',
              operator: 'is-before',
              value: localDay(0),
            },
            {
              type: 'condition',
              id: `cond_${stamp}_b`,
              property: 'tags',
              operator: 'contains',
              value: 'urgent',
            },
          ],
        },
        { type: 'condition', id: `cond_${stamp}_c`, property: 'priority', operator: 'is', value: 'high' },
      ],
    };
    const res = await server.request('POST', '/api/tasks/query', query);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(titles(res), ['Old', 'Write report']);
    assert.equal(res.body.data.filtered, 2);
  });

  it('a query with limit and offset returns one page; filtered counts every match', async () => {
    const res = await server.request('POST', '/api/tasks/query', {
      type: 'group',
      conjunction: 'and',
      children: [{ type: 'condition', property: 'tags', operator: 'contains', value: 'work' }],
      sortKey: 'due',
      limit: 2,
      offset: 1,
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(titles(res), ['Write report', 'Fix bug']);
    assert.equal(res.body.data.filtered, 3);
    assert.equal(res.body.data.total, 5);
  });
});
