/**
 * The dependency graph kept in step change by change: after every change its read shapes equal
 * those of a graph built from scratch, and the tasks a change reports as affected are all those
 * whose read shape changed.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TaskGraph, newViewShape, type TaskBase } from '../../../src/core/tasks/task-graph.js';

interface Model {
  uids: string[];
  status: string;
}

// Names that collide across folders (ambiguous links), links by name, path and markdown, and
// links to notes that come and go.
const PATHS = ['A.md', 'B.md', 'Sub/A.md', 'Sub/C.md', 'D.md', 'Other/D.md', 'E.md', 'Sub/F.md'];
const UIDS = [
  '[[A]]',
  '[[B]]',
  '[[C]]',
  '[[D]]',
  '[[Sub/A]]',
  '[x](E.md)',
  'Sub/F.md',
  '[[F]]',
  '[[Missing]]',
  '[[E|alias]]',
];
const STATUSES = ['open', 'done', 'in-progress'];
const isCompleted = (status: string): boolean => status === 'done';

function build(tasks: Map<string, Model>): TaskGraph {
  return new TaskGraph(
    [...tasks.keys()],
    [...tasks].filter(([, t]) => t.uids.length > 0).map(([path, t]) => ({ path, uids: t.uids })),
    (p) => tasks.get(p)?.status,
    isCompleted,
  );
}

const base = (path: string, t: Model): TaskBase =>
  Object.assign(newViewShape(), { path, title: path, status: t.status }) as TaskBase;
const viewsOf = (graph: TaskGraph, tasks: Map<string, Model>): Map<string, unknown> =>
  new Map([...tasks].map(([path, t]) => [path, graph.view(base(path, t), t.uids)]));

test('changes applied one by one give the read shapes of a graph built from scratch', () => {
  let seed = 5;
  const next = (n: number): number =>
    Math.floor(((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * n);
  const tasks = new Map<string, Model>();
  for (const path of PATHS) if (next(3) > 0) tasks.set(path, { uids: [], status: STATUSES[next(3)]! });
  const graph = build(tasks);
  const info = (t: Model | undefined) => t && { uids: t.uids, completed: isCompleted(t.status) };
  for (let step = 0; step < 600; step++) {
    const before = viewsOf(graph, tasks);
    const path = PATHS[next(PATHS.length)]!;
    const old = tasks.get(path);
    const kind = next(4);
    let now: Model | undefined;
    if (old && kind === 0)
      now = undefined; // removed
    else if (old && kind === 1) now = { ...old, status: STATUSES[next(3)]! };
    else
      now = {
        uids: Array.from({ length: next(3) }, () => UIDS[next(UIDS.length)]!),
        status: old?.status ?? STATUSES[next(3)]!,
      };
    if (now) tasks.set(path, now);
    else tasks.delete(path);
    const affected = graph.change(path, info(old), info(now));

    const expected = viewsOf(build(tasks), tasks);
    const got = viewsOf(graph, tasks);
    assert.deepEqual(got, expected, `step ${step}: ${path} ${JSON.stringify(old)} -> ${JSON.stringify(now)}`);
    for (const [other, view] of got) {
      if (other === path || affected.has(other)) continue;
      assert.deepEqual(view, before.get(other), `step ${step}: ${other} changed but was not reported`);
    }
  }
});

test('a task added with a link to itself is not blocked by it', () => {
  const tasks = new Map<string, Model>([['B.md', { uids: [], status: 'open' }]]);
  const graph = build(tasks);
  const self = { uids: ['[[A]]'], status: 'open' };
  tasks.set('A.md', self);
  graph.change('A.md', undefined, { uids: self.uids, completed: false });
  assert.equal(graph.view(base('A.md', self), self.uids).isBlocked, false);
});
