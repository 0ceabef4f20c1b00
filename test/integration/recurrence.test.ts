/** Recurring-task routes and their webhooks, through the real server process. */
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { encodeId, startTestServer, waitFor, type TestServer } from '../helpers/server-process.js';

const PARENT = 'TaskNotes/Tasks/Water plants.md';
const OTHER = 'TaskNotes/Tasks/Pay rent.md';
const recurring = (rule: string): string =>
  `---\nstatus: open\npriority: normal\nscheduled: 2026-01-05\nrecurrence: ${rule}\ntags:\n  - task\n---\n`;

describe('recurring routes', () => {
  let server: TestServer;
  let receiver: Receiver;
  const url = (id: string, action: string): string => `/api/tasks/${encodeId(id)}/${action}`;
  const received = (event: string): any[] =>
    receiver.requests.map((r) => r.body).filter((b) => b.event === event);

  before(async () => {
    receiver = await startReceiver();
    server = await startTestServer({
      files: {
        [PARENT]: recurring('DTSTART:20260105;FREQ=WEEKLY;BYDAY=MO'),
        [OTHER]: recurring('DTSTART:20260105;FREQ=MONTHLY;BYMONTHDAY=5'),
        'TaskNotes/Tasks/Once.md': '---\nstatus: open\ntags:\n  - task\n---\n',
      },
    });
    const res = await server.request('POST', '/api/webhooks', {
      url: receiver.url,
      events: ['recurring.instance.completed', 'recurring.instance.skipped', 'task.created', 'task.updated'],
    });
    assert.equal(res.status, 201);
  });
  after(async () => {
    await server.cleanup();
    await receiver.close();
  });

  it('complete-instance toggles one instance and emits recurring.instance.completed on completion', async () => {
    const done = await server.request('POST', url(PARENT, 'complete-instance'), { date: '2026-01-12' });
    assert.equal(done.status, 200);
    assert.deepEqual(done.body.data.complete_instances, ['2026-01-12']);
    assert.equal(done.body.data.status, 'open');
    assert.equal(done.body.data.id, PARENT);
    const hook = await waitFor(() => received('recurring.instance.completed')[0]);
    assert.equal(hook.data.date, '2026-01-12');
    assert.equal(hook.data.targetDate, '2026-01-12T00:00:00.000Z');
    assert.deepEqual(hook.data.task.complete_instances, ['2026-01-12']);

    const undone = await server.request('POST', url(PARENT, 'complete-instance'), { date: '2026-01-12' });
    assert.equal(undone.status, 200);
    assert.deepEqual(undone.body.data.complete_instances ?? [], []);
    const text = await readFile(path.join(server.vault, PARENT), 'utf8');
    assert.doesNotMatch(text, /2026-01-12/);
  });

  it('answers the reference errors', async () => {
    const cases: Array<[string, string, unknown, number, string]> = [
      [PARENT, 'complete-instance', { date: 'soon' }, 400, 'Invalid date "soon". Expected YYYY-MM-DD.'],
      [PARENT, 'complete-instance', { date: 5 }, 400, 'date must be an ISO 8601 date string'],
      ['TaskNotes/Tasks/Once.md', 'complete-instance', {}, 400, 'Task is not recurring'],
      ['TaskNotes/Tasks/Nope.md', 'complete-instance', {}, 404, 'Task not found'],
      [PARENT, 'materialize-occurrence', {}, 400, 'Date is required'],
      [
        PARENT,
        'materialize-occurrence',
        { date: '2026-13-01' },
        400,
        'Invalid date "2026-13-01". Expected YYYY-MM-DD.',
      ],
      [
        'TaskNotes/Tasks/Once.md',
        'materialize-occurrence',
        { date: '2026-01-12' },
        400,
        'Task is not recurring',
      ],
      [PARENT, 'skip-instance', {}, 400, 'Date is required'],
      [
        PARENT,
        'skip-instance',
        { date: '2026-01-13' },
        400,
        "2026-01-13 is not a day the task's recurrence rule produces",
      ],
      [PARENT, 'unskip-instance', { date: 'x' }, 400, 'Invalid date "x". Expected YYYY-MM-DD.'],
      ['TaskNotes/Tasks/Nope.md', 'skip-instance', { date: '2026-01-12' }, 404, 'Task not found'],
    ];
    for (const [id, action, body, status, error] of cases) {
      const res = await server.request('POST', url(id, action), body);
      assert.equal(res.status, status, `${action} ${JSON.stringify(body)}`);
      assert.deepEqual(res.body, { success: false, error });
    }
  });

  it('materialize-occurrence creates one note per day and returns it again', async () => {
    const first = await server.request('POST', url(PARENT, 'materialize-occurrence'), { date: '2026-01-19' });
    assert.equal(first.status, 200);
    assert.equal(first.body.data.path, 'TaskNotes/Tasks/Water plants-2.md');
    assert.equal(first.body.data.recurrence_parent, '[[Water plants]]');
    assert.equal(first.body.data.occurrence_date, '2026-01-19');
    assert.equal(first.body.data.scheduled, '2026-01-19');
    const again = await server.request('POST', url(PARENT, 'materialize-occurrence'), { date: '2026-01-19' });
    assert.equal(again.status, 200);
    assert.equal(again.body.data.path, first.body.data.path);
    await waitFor(() => received('task.created').length === 1);
    const text = await readFile(path.join(server.vault, first.body.data.path), 'utf8');
    assert.match(text, /recurrence_parent: "\[\[Water plants\]\]"/);
    assert.match(text, /occurrence_date: 2026-01-19/);
  });

  it('completing the occurrence note through toggle-status reconciles the parent', async () => {
    const occurrence = 'TaskNotes/Tasks/Water plants-2.md';
    const res = await server.request('POST', `/api/tasks/${encodeId(occurrence)}/toggle-status`);
    assert.equal(res.status, 200);
    const parent = await server.request('GET', `/api/tasks/${encodeId(PARENT)}`);
    assert.deepEqual(parent.body.data.complete_instances, ['2026-01-19']);
    const hook = await waitFor(() => received('recurring.instance.completed').find((b) => b.data.occurrence));
    assert.equal(hook.data.date, '2026-01-19');
    assert.equal(hook.data.occurrence.path, occurrence);
    assert.equal(hook.data.task.path, PARENT);
  });

  it('skip-instance emits recurring.instance.skipped once; unskip undoes it silently', async () => {
    const before = received('recurring.instance.skipped').length;
    const res = await server.request('POST', url(OTHER, 'skip-instance'), { date: '2026-02-05' });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data.skipped_instances, ['2026-02-05']);
    await waitFor(() => received('recurring.instance.skipped').length === before + 1);
    const undone = await server.request('POST', url(OTHER, 'unskip-instance'), { date: '2026-02-05' });
    assert.equal(undone.status, 200);
    assert.deepEqual(undone.body.data.skipped_instances ?? [], []);
    // Give a stray duplicate time to arrive before counting.
    await new Promise((r) => setTimeout(r, 300));
    const skips = received('recurring.instance.skipped').filter((b) => b.data.task.path === OTHER);
    assert.equal(skips.length, 1);
    assert.equal(skips[0].data.date, '2026-02-05');
  });

  it('a PUT or an external edit that adds a skipped day emits recurring.instance.skipped', async () => {
    const put = await server.request('PUT', `/api/tasks/${encodeId(OTHER)}`, {
      skipped_instances: ['2026-03-05'],
    });
    assert.equal(put.status, 200);
    await waitFor(() => received('recurring.instance.skipped').some((b) => b.data.date === '2026-03-05'));

    const file = path.join(server.vault, OTHER);
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('skipped_instances:\n', 'skipped_instances:\n  - 2026-04-05\n'));
    const hook = await waitFor(() =>
      received('recurring.instance.skipped').find((b) => b.data.date === '2026-04-05'),
    );
    assert.equal(hook.data.task.path, OTHER);
    assert.ok(received('task.updated').some((b) => b.data.task.path === OTHER));
  });

  it('lists the two Taskdown skip routes in the OpenAPI document', async () => {
    const doc = await server.request('GET', '/api/docs');
    for (const p of ['skip-instance', 'unskip-instance', 'complete-instance', 'materialize-occurrence']) {
      assert.ok(doc.body.paths[`/api/tasks/{id}/${p}`]?.post, p);
    }
  });
});
