import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { markShared } from '../../src/core/tasks/shared-views.js';
import { okWithTasks, taskJson } from '../../src/http/task-json.js';
import { task } from '../core/query/fixtures.js';

describe('task JSON cache', () => {
  it('produces exactly JSON.stringify output', () => {
    const tasks = [
      markShared(task('a.md', { due: '2026-01-01', title: 'Quote "me" \\ ✓' }), 'h'),
      task('b.md'),
    ];
    for (const t of tasks) assert.equal(taskJson(t), JSON.stringify(t));
    const empty = okWithTasks({ tasks: [] }).body as Buffer;
    assert.equal(empty.toString(), JSON.stringify({ success: true, data: { tasks: [] } }));
  });

  it('never reuses the text of an object that can still change', () => {
    const mutable = task('m.md');
    taskJson(mutable);
    mutable.title = 'Changed';
    assert.match(taskJson(mutable), /"title":"Changed"/);
  });

  it("reuses the text of the index's shared objects", () => {
    const shared = markShared(task('s.md'), 'h');
    const text = taskJson(shared);
    assert.equal(taskJson(shared), text);
  });
});

describe('okWithTasks', () => {
  it('writes exactly the success envelope JSON.stringify would', () => {
    const data = {
      tasks: [markShared(task('a.md'), 'h'), task('b.md', { due: '2026-01-01', title: 'Café ☕ 😀' })],
      pagination: { total: 2, offset: 0, limit: 50, hasMore: false },
      skipped: undefined,
      vault: { name: 'v', path: '/v' },
    };
    const result = okWithTasks(data);
    assert.equal(result.status, 200);
    assert.equal(result.contentType, 'application/json; charset=utf-8');
    assert.ok(Buffer.isBuffer(result.body));
    assert.equal(result.body.toString('utf8'), JSON.stringify({ success: true, data }));
  });
});
