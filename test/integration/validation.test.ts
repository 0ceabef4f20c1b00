/**
 * Validated writes through the HTTP API: in strict mode (the default) a task write with a
 * validation error answers 400 naming the field and writes nothing; problems a note already had do
 * not block edits of its other fields; warnings never block; `--validation permissive` lets the
 * write through. GET /api/health shows the mode.
 */
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { encodeId, startTestServer, type ServerOptions, type TestServer } from '../helpers/server-process.js';

const GOOD = `---
title: Good
status: open
dateCreated: 2026-01-05T09:00:00.000+01:00
dateModified: 2026-01-05T09:00:00.000+01:00
tags:
  - task
---

Body stays.
`;
/** Written by an old plugin version: no dateCreated, no dateModified. */
const OLD = `---
status: open
tags:
  - task
---
`;
/** Already broken: an impossible due date. */
const BROKEN = `---
status: open
due: 2026-02-30
dateCreated: 2026-01-05T09:00:00.000+01:00
dateModified: 2026-01-05T09:00:00.000+01:00
tags:
  - task
---
`;

const BAD_VALUES: Array<[string, unknown, string]> = [
  ['due', '2026-13-45', 'invalid_date_value'],
  ['scheduled', '2026-11-30T25:00', 'invalid_date_value'],
  ['timeEstimate', -5, 'invalid_time_estimate'],
  ['status', 'waiting-for-godot', 'invalid_enum_value'],
  ['priority', 'urgent!!', 'invalid_enum_value'],
  ['recurrence', 'FREQ=FORTNIGHTLY', 'invalid_recurrence_rule'],
  ['complete_instances', ['2026-02-31'], 'invalid_date_value'],
  ['blockedBy', [{ uid: '[[Other]]', reltype: 'BLOCKS' }], 'invalid_dependency_reltype'],
  [
    'reminders',
    [{ id: 'r1', type: 'relative', relatedTo: 'due', offset: 'soon' }],
    'invalid_reminder_offset',
  ],
  [
    'timeEntries',
    [{ startTime: '2026-01-05T10:00:00Z', endTime: '2026-01-05T09:00:00Z' }],
    'invalid_time_range',
  ],
];

const taskUrl = (id: string) => `/api/tasks/${encodeId(id)}`;

describe('validated writes (strict, the default)', () => {
  let server: TestServer;
  const read = (id: string) => readFile(path.join(server.vault, id), 'utf8');
  before(async () => {
    server = await startTestServer({ files: { 'Good.md': GOOD, 'Old.md': OLD, 'Broken.md': BROKEN } });
  });
  after(() => server.cleanup());

  it('GET /api/health shows the mode', async () => {
    assert.equal((await server.request('GET', '/api/health')).body.data.validation, 'strict');
  });

  for (const [field, value, code] of BAD_VALUES) {
    it(`POST /api/tasks with a bad ${field} is a 400 naming it, and writes nothing`, async () => {
      const res = await server.request('POST', '/api/tasks', { title: `Bad ${field}`, [field]: value });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.success, false);
      assert.match(res.body.error, new RegExp(`^${field}(\\[\\d+\\])?: `));
      assert.ok(
        res.body.issues.some((i: { code: string; field: string; severity: string }) => {
          return i.code === code && i.field.startsWith(field) && i.severity === 'error';
        }),
        JSON.stringify(res.body.issues),
      );
      const folder = await readdir(path.join(server.vault, 'TaskNotes/Tasks')).catch(() => []);
      assert.deepEqual(folder, []);
    });

    it(`PUT with a bad ${field} is a 400 naming it, and leaves the note as it was`, async () => {
      const before = await read('Good.md');
      const res = await server.request('PUT', taskUrl('Good.md'), { [field]: value });
      assert.equal(res.status, 400, res.text);
      assert.match(res.body.error, new RegExp(`^${field}(\\[\\d+\\])?: `));
      assert.equal(res.body.issues[0].code, code);
      assert.equal(await read('Good.md'), before);
    });
  }

  it('a valid write still succeeds', async () => {
    const created = await server.request('POST', '/api/tasks', {
      title: 'Fine',
      due: '2026-03-01',
      scheduled: '2026-02-27T09:30',
      timeEstimate: 30,
      status: 'in-progress',
    });
    assert.equal(created.status, 201, created.text);
    const updated = await server.request('PUT', taskUrl('Good.md'), { due: '2026-04-01', timeEstimate: 5 });
    assert.equal(updated.status, 200, updated.text);
    assert.match(await read('Good.md'), /due: 2026-04-01\n/);
    await server.request('DELETE', taskUrl(created.body.data.id));
  });

  it('reminders without an id get one when written', async () => {
    const res = await server.request('POST', '/api/tasks', {
      title: 'Remind me',
      due: '2026-03-01',
      reminders: [{ type: 'relative', relatedTo: 'due', offset: '-PT1H' }],
    });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(res.body.data.reminders, [
      { type: 'relative', relatedTo: 'due', offset: '-PT1H', id: 'reminder-1' },
    ]);
    await server.request('DELETE', taskUrl(res.body.data.id));
  });

  it('a label of a configured status is written as its value', async () => {
    const res = await server.request('PUT', taskUrl('Good.md'), { status: 'In progress' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.status, 'in-progress');
  });

  it('an old note without dateCreated can still be edited', async () => {
    const res = await server.request('PUT', taskUrl('Old.md'), { priority: 'high' });
    assert.equal(res.status, 200, res.text);
    assert.match(await read('Old.md'), /priority: high/);
    assert.equal((await server.request('POST', `${taskUrl('Old.md')}/toggle-status`)).status, 200);
  });

  it('a problem a note already has blocks only a write of that field', async () => {
    const ok = await server.request('PUT', taskUrl('Broken.md'), { priority: 'low' });
    assert.equal(ok.status, 200, ok.text);
    const before = await read('Broken.md');
    const again = await server.request('PUT', taskUrl('Broken.md'), { due: '2026-02-31' });
    assert.equal(again.status, 400);
    assert.equal(again.body.issues[0].field, 'due');
    assert.equal(await read('Broken.md'), before);
    const fixed = await server.request('PUT', taskUrl('Broken.md'), { due: '2026-02-28' });
    assert.equal(fixed.status, 200);
  });

  it('warnings never block: a dependency on a task that does not exist is written', async () => {
    const res = await server.request('PUT', taskUrl('Good.md'), { blockedBy: [{ uid: '[[Nowhere]]' }] });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.isBlocked, true);
  });

  it('a task cannot depend on itself', async () => {
    const res = await server.request('PUT', taskUrl('Good.md'), { blockedBy: ['[[Good]]'] });
    assert.equal(res.status, 400);
    assert.equal(res.body.issues[0].code, 'self_dependency');
  });

  it('the OpenAPI document describes the issues of a refused write', async () => {
    const doc = (await server.request('GET', '/api/docs')).body;
    const refused = doc.paths['/api/tasks'].post.responses['400'].content['application/json'].schema;
    assert.ok(refused.properties.issues, JSON.stringify(refused));
  });
});

describe('validated writes, permissive', () => {
  const ways: Array<[string, ServerOptions]> = [
    ['--validation permissive', { args: ['--validation', 'permissive'] }],
    ['TASKDOWN_VALIDATION=permissive', { env: { TASKDOWN_VALIDATION: 'permissive' } }],
  ];
  for (const [how, options] of ways) {
    it(`${how} writes what strict mode refuses, and says so in /api/health`, async () => {
      const server = await startTestServer({ ...options });
      try {
        assert.equal((await server.request('GET', '/api/health')).body.data.validation, 'permissive');
        const res = await server.request('POST', '/api/tasks', { title: 'Loose', due: '2026-13-45' });
        assert.equal(res.status, 201, res.text);
        assert.match(await readFile(path.join(server.vault, res.body.data.id), 'utf8'), /due: 2026-13-45/);
      } finally {
        await server.cleanup();
      }
    });
  }
});
