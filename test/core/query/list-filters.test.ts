import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DomainError } from '../../../src/core/errors.js';
import { hasListFilters, listFilterQuery, type ListParams } from '../../../src/core/query/list-filters.js';
import { runQuery } from '../../../src/core/query/run-query.js';
import type { TaskInfo } from '../../../src/core/tasks/task-info.js';
import { env, NOW, SETTINGS, task } from './fixtures.js';

/** Paths the engine returns for the translated parameters (the route's own path). */
function list(tasks: TaskInfo[], params: ListParams): string[] {
  assert.ok(hasListFilters(params));
  const query = listFilterQuery(params, SETTINGS);
  return runQuery(query, env(tasks)).tasks.map((t) => t.path);
}

function rejects(params: ListParams, message: RegExp): void {
  assert.throws(
    () => listFilterQuery(params, SETTINGS),
    (err: unknown) => err instanceof DomainError && err.code === 'INVALID' && message.test(err.message),
  );
}

// NOW is 2026-03-10 12:00 local.
const TASKS = [
  task('a.md', {
    status: 'open',
    priority: 'high',
    due: '2026-03-09',
    projects: ['[[Website]]'],
    contexts: ['@office'],
    tags: ['task', 'work'],
  }),
  task('b.md', {
    status: 'in-progress',
    priority: 'normal',
    due: '2026-03-10T15:00',
    projects: ['[[Launch]]'],
  }),
  task('c.md', { status: 'done', priority: 'low', due: '2026-03-01', tags: ['task', 'home'] }),
  task('d.md', { status: 'open', scheduled: '2026-03-10', archived: true, tags: ['task', 'archived'] }),
  task('e.md', {
    status: 'open',
    scheduled: '2026-03-12T09:00',
    contexts: ['@home'],
    tags: ['task', 'work/deep'],
  }),
];

describe('GET /api/tasks filter parameters', () => {
  it('no filter parameter: no query (the cached list answers)', () => {
    assert.equal(hasListFilters({}), false);
    assert.equal(hasListFilters({ limit: '5', offset: '1', foo: 'bar' }), false);
  });

  it('status and priority: is; several values (comma-separated or repeated) mean any of them', () => {
    assert.deepEqual(list(TASKS, { status: 'open' }), ['a.md', 'd.md', 'e.md']);
    assert.deepEqual(list(TASKS, { status: 'open,done' }), ['a.md', 'c.md', 'd.md', 'e.md']);
    assert.deepEqual(list(TASKS, { status: ['in-progress', 'done'] }), ['b.md', 'c.md']);
    assert.deepEqual(list(TASKS, { priority: 'high' }), ['a.md']);
  });

  it('project by display name or link, context by substring, tag with hierarchy and exclusion', () => {
    assert.deepEqual(list(TASKS, { project: 'Website' }), ['a.md']);
    assert.deepEqual(list(TASKS, { project: '[[Launch]]' }), ['b.md']);
    const titled = [
      ...TASKS,
      task('Website.md', { title: 'Website relaunch' }),
      task('f.md', { projects: ['Website'] }),
    ];
    assert.deepEqual(list(titled, { project: 'Website' }), ['a.md', 'f.md']);
    assert.deepEqual(list(titled, { project: 'Website relaunch' }), ['a.md']);
    assert.deepEqual(list(TASKS, { context: 'home' }), ['e.md']);
    assert.deepEqual(list(TASKS, { tag: 'work' }), ['a.md', 'e.md']);
    assert.deepEqual(list(TASKS, { tag: '-work' }), ['b.md', 'c.md', 'd.md']);
  });

  it('completed, archived and overdue take true or false', () => {
    assert.deepEqual(list(TASKS, { completed: 'true' }), ['c.md']);
    assert.deepEqual(list(TASKS, { completed: 'false' }), ['a.md', 'b.md', 'd.md', 'e.md']);
    assert.deepEqual(list(TASKS, { archived: 'TRUE' }), ['d.md']);
    assert.deepEqual(list(TASKS, { overdue: 'true' }), ['a.md']);
    assert.deepEqual(list(TASKS, { overdue: 'false' }), ['b.md', 'c.md', 'd.md', 'e.md']);
  });

  it('date bounds are strict; relative dates and timestamps with an offset work', () => {
    // A date-only bound is the end of its day next to a date-time (the engine's rule).
    assert.deepEqual(list(TASKS, { due_before: '2026-03-10' }), ['a.md', 'b.md', 'c.md']);
    assert.deepEqual(list(TASKS, { due_before: '2026-03-10T12:00' }), ['a.md', 'c.md']);
    assert.deepEqual(list(TASKS, { due_after: '2026-03-09' }), ['b.md']);
    assert.deepEqual(list(TASKS, { scheduled_after: 'today' }), ['e.md']);
    assert.deepEqual(list(TASKS, { scheduled_before: 'in 3 days', scheduled_after: 'yesterday' }), [
      'd.md',
      'e.md',
    ]);
    // "Now" as an instant (what `tn list --overdue` sends) is compared as local wall-clock time.
    const now = new Date(NOW).toISOString();
    assert.deepEqual(list(TASKS, { due_before: now, completed: 'false' }), ['a.md']);
    const later = new Date(NOW + 4 * 3_600_000).toISOString();
    assert.deepEqual(list(TASKS, { due_before: later, completed: 'false' }), ['a.md', 'b.md']);
  });

  it('filters combine with and; sort is field or field:direction, path order without it', () => {
    assert.deepEqual(list(TASKS, { status: 'open', tag: 'work' }), ['a.md', 'e.md']);
    assert.deepEqual(list(TASKS, { completed: 'false', sort: 'priority:desc' }), [
      'a.md',
      'b.md',
      'd.md',
      'e.md',
    ]);
    assert.deepEqual(list(TASKS, { sort: 'due' }), ['c.md', 'a.md', 'b.md', 'd.md', 'e.md']);
    assert.deepEqual(list(TASKS, { sort: 'path:desc' }), ['e.md', 'd.md', 'c.md', 'b.md', 'a.md']);
    assert.deepEqual(list(TASKS, { sort: 'user:effort' }).length, 5);
  });

  it('a bad value is a 400 naming the parameter', () => {
    rejects({ status: '' }, /^Invalid query parameter "status": expected a value$/);
    rejects({ status: ' , ' }, /"status": expected a value/);
    rejects({ completed: 'yes' }, /^Invalid query parameter "completed": expected true or false, got "yes"$/);
    rejects({ overdue: ['true', 'false'] }, /"overdue": give it once/);
    rejects(
      { due_before: 'soon' },
      /^Invalid query parameter "due_before": "soon" is not a date; use YYYY-MM-DD/,
    );
    rejects({ scheduled_after: '2026-02-30' }, /"scheduled_after": "2026-02-30" is not a date/);
    rejects({ sort: 'colour' }, /^Invalid query parameter "sort": unknown field "colour"; use one of: due,/);
    rejects({ sort: 'due:up' }, /"sort": unknown field "due:up"/);
    rejects({ sort: 'user:nope' }, /"sort": unknown field "user:nope"/);
  });
});
