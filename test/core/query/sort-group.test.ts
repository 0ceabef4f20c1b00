import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { QueryContext } from '../../../src/core/query/context.js';
import { groupTasks } from '../../../src/core/query/group.js';
import { runQuery } from '../../../src/core/query/run-query.js';
import { sortedHead, sortTasks } from '../../../src/core/query/sort.js';
import type { QueryOptions } from '../../../src/core/query/types.js';
import type { TaskInfo } from '../../../src/core/tasks/task-info.js';
import { and, cond, env, task } from './fixtures.js';

const paths = (tasks: TaskInfo[]): string[] => tasks.map((t) => t.path);

function sorted(tasks: TaskInfo[], sortKey: string, sortDirection: 'asc' | 'desc' = 'asc'): string[] {
  const options: QueryOptions = { sortKey, sortDirection, groupKey: 'none' };
  return paths(sortTasks(tasks, options, new QueryContext(env(tasks))));
}

function grouped(tasks: TaskInfo[], groupKey: string): Array<[string, string[]]> {
  return groupTasks(tasks, groupKey, new QueryContext(env(tasks))).map((g) => [g.key, paths(g.tasks)]);
}

describe('sorting', () => {
  const a = task('a.md', { title: 'Alpha', due: '2026-03-12', priority: 'low' });
  const b = task('b.md', { title: 'beta', due: '2026-03-12T08:00', priority: 'high' });
  const c = task('c.md', { title: 'Gamma', priority: 'none' });
  const d = task('d.md', { title: 'delta', due: '2026-03-01', priority: 'normal' });

  it('due ascending is time-aware with missing values last; desc negates (missing first)', () => {
    assert.deepEqual(sorted([a, b, c, d], 'due'), ['d.md', 'b.md', 'a.md', 'c.md']);
    assert.deepEqual(sorted([a, b, c, d], 'due', 'desc'), ['c.md', 'a.md', 'b.md', 'd.md']);
  });

  it('priority by weight; desc puts high first', () => {
    assert.deepEqual(sorted([a, b, c, d], 'priority'), ['c.md', 'a.md', 'd.md', 'b.md']);
    assert.deepEqual(sorted([a, b, c, d], 'priority', 'desc'), ['b.md', 'd.md', 'a.md', 'c.md']);
  });

  it('title uses locale comparison (case-insensitive order)', () => {
    assert.deepEqual(sorted([a, b, c, d], 'title'), ['a.md', 'b.md', 'd.md', 'c.md']);
  });

  it('title order equals localeCompare order, including case, digits, spaces and punctuation', () => {
    const alphabet = "aAbBzZ09 -_.'éÉ";
    let seed = 7;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const titles = Array.from({ length: 400 }, () =>
      Array.from(
        { length: 1 + Math.floor(next() * 6) },
        () => alphabet[Math.floor(next() * alphabet.length)],
      ).join(''),
    );
    const tasks = titles.map((title, i) => task(`${i}.md`, { title }));
    const got = sortTasks(
      tasks,
      { sortKey: 'title', sortDirection: 'asc', groupKey: 'none' },
      new QueryContext(env(tasks)),
    ).map((t) => t.title);
    const expected = [...titles].sort((a, b) => a.localeCompare(b));
    // Equal titles may come in any order; compare the sequences of titles only.
    assert.deepEqual(got, expected);
  });

  it('status by configured order; unknown counts as 0', () => {
    const s1 = task('s1.md', { status: 'done' });
    const s2 = task('s2.md', { status: 'in-progress' });
    const s3 = task('s3.md', { status: 'weird' });
    const s4 = task('s4.md', { status: 'open' });
    assert.deepEqual(sorted([s1, s2, s3, s4], 'status'), ['s3.md', 's4.md', 's2.md', 's1.md']);
  });

  it('tags by first tag (lower-cased), tasks without tags last', () => {
    const t1 = task('t1.md', { tags: ['Zeta'] });
    const t2 = task('t2.md', { tags: [] });
    const t3 = task('t3.md', { tags: ['alpha'] });
    assert.deepEqual(sorted([t1, t2, t3], 'tags'), ['t3.md', 't1.md', 't2.md']);
  });

  it('ties break by due, scheduled, priority (high first), title, whatever the direction', () => {
    const x = task('x.md', { title: 'X', status: 'open', due: '2026-03-05', priority: 'low' });
    const y = task('y.md', { title: 'Y', status: 'open', due: '2026-03-05', priority: 'high' });
    const z = task('z.md', { title: 'A', status: 'open', due: '2026-03-04' });
    const w = task('w.md', { title: 'B', status: 'open', due: '2026-03-05', priority: 'high' });
    assert.deepEqual(sorted([x, y, z, w], 'status'), ['z.md', 'w.md', 'y.md', 'x.md']);
    assert.deepEqual(sorted([x, y, z, w], 'status', 'desc'), ['z.md', 'w.md', 'y.md', 'x.md']);
  });

  it('dateCreated and completedDate sort time-aware', () => {
    const p = task('p.md', { dateCreated: '2026-01-02T10:00:00.000+01:00', completedDate: '2026-02-01' });
    const q = task('q.md', { dateCreated: '2026-01-02T09:00:00.000+01:00' });
    assert.deepEqual(sorted([p, q], 'dateCreated'), ['q.md', 'p.md']);
    assert.deepEqual(sorted([q, p], 'completedDate'), ['p.md', 'q.md']);
  });

  it('path sorts by code units, the order of the task index', () => {
    const s = [task('b/x.md'), task('B.md'), task('a.md'), task('a b.md')];
    assert.deepEqual(sorted(s, 'path'), ['B.md', 'a b.md', 'a.md', 'b/x.md']);
    assert.deepEqual(sorted(s, 'path', 'desc'), ['b/x.md', 'a.md', 'a b.md', 'B.md']);
  });

  it('user fields sort by type', () => {
    const u1 = task('u1.md', {
      effort: 8,
      billable: false,
      reviewDate: '2026-05-01',
      people: ['zed'],
      client: 'b',
    });
    const u2 = task('u2.md', { effort: '2', billable: true, reviewDate: 'junk', people: [], client: 'A' });
    const u3 = task('u3.md', { effort: 'n/a', reviewDate: '2026-01-01', people: ['amy'] });
    const all = [u1, u2, u3];
    assert.deepEqual(sorted(all, 'user:effort'), ['u2.md', 'u1.md', 'u3.md']);
    assert.deepEqual(sorted(all, 'user:billable'), ['u2.md', 'u1.md', 'u3.md']);
    assert.deepEqual(sorted(all, 'user:review'), ['u3.md', 'u1.md', 'u2.md']);
    assert.deepEqual(sorted(all, 'user:people'), ['u3.md', 'u1.md', 'u2.md']);
    assert.deepEqual(sorted(all, 'user:client'), ['u2.md', 'u1.md', 'u3.md']);
  });
});

describe('sorting one page (the first n only)', () => {
  // Few distinct values, so nearly every comparison ties on the primary key and the tie chain and
  // the input order (a stable sort's) decide.
  let seed = 11;
  const next = (n: number): number =>
    Math.floor(((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * n);
  const tasks = Array.from({ length: 300 }, (_, i) =>
    task(`${String(i).padStart(3, '0')}.md`, {
      title: ['Alpha', 'beta', 'Beta', 'gamma'][next(4)]!,
      priority: ['low', 'normal', 'high'][next(3)]!,
      status: ['open', 'in-progress', 'done'][next(3)]!,
      ...(next(4) > 0 ? { due: `2026-03-1${next(3)}${next(2) ? 'T08:00' : ''}` } : {}),
      ...(next(3) > 0 ? { scheduled: `2026-03-0${1 + next(2)}` } : {}),
    }),
  );
  const ctx = new QueryContext(env(tasks));

  for (const sortKey of ['due', 'scheduled', 'priority', 'title', 'status', 'path', 'none']) {
    for (const sortDirection of ['asc', 'desc'] as const) {
      it(`equals the head of the full sort: ${sortKey} ${sortDirection}`, () => {
        const options: QueryOptions = { sortKey, sortDirection, groupKey: 'none' };
        const full = paths(sortTasks(tasks, options, ctx));
        for (const n of [0, 1, 7, 50, 299, 300, 301]) {
          assert.deepEqual(paths(sortedHead(tasks, options, ctx, n).tasks), full.slice(0, n), `first ${n}`);
        }
        // With a filter: the head of the sorted matches, and how many matched, without a list of them.
        const keep = (t: TaskInfo): boolean => t.status !== 'done';
        const kept = paths(sortTasks(tasks.filter(keep), options, ctx));
        for (const n of [0, 1, 7, 50, kept.length, 300]) {
          const head = sortedHead(tasks, options, ctx, n, keep);
          assert.deepEqual(
            [paths(head.tasks), head.matched],
            [kept.slice(0, n), kept.length],
            `first ${n} kept`,
          );
        }
      });
    }
  }
});

describe('grouping', () => {
  it('project and tags grouping never duplicate a task', () => {
    const p = task('Projects/P.md');
    const t1 = task('t1.md', { projects: ['[[P]]', '[[Q]]'], tags: ['task', 'b', 'a'] });
    const t2 = task('t2.md', { projects: ['[[Q]]'], tags: ['a'] });
    const t3 = task('t3.md', { tags: [] });
    assert.deepEqual(grouped([p, t1, t2, t3], 'project'), [
      ['Projects/P', ['t1.md']],
      ['Q', ['t2.md']],
      ['No project', ['Projects/P.md', 't3.md']],
    ]);
    assert.deepEqual(grouped([p, t1, t2, t3], 'tags'), [
      ['a', ['t2.md']],
      ['task', ['Projects/P.md', 't1.md']],
      ['No tags', ['t3.md']],
    ]);
  });

  it('status groups by configured order, priority by weight (highest first)', () => {
    const s = [
      task('1.md', { status: 'done', priority: 'low' }),
      task('2.md', { status: 'none', priority: 'high' }),
      task('3.md', { status: 'open' }),
    ];
    assert.deepEqual(
      grouped(s, 'status').map(([k]) => k),
      ['none', 'open', 'done'],
    );
    assert.deepEqual(
      grouped(s, 'priority').map(([k]) => k),
      ['high', 'normal', 'low'],
    );
  });

  it('context groups by the first context, "none" last', () => {
    const s = [
      task('1.md', { contexts: ['@work', '@home'] }),
      task('2.md'),
      task('3.md', { contexts: ['@home'] }),
    ];
    assert.deepEqual(grouped(s, 'context'), [
      ['@home', ['3.md']],
      ['@work', ['1.md']],
      ['none', ['2.md']],
    ]);
  });

  it('due buckets relative to the local today; completed tasks are never overdue', () => {
    // NOW is 2026-03-10 12:00 local.
    const s = [
      task('late.md', { due: '2026-03-09' }),
      task('late-done.md', { due: '2026-03-09', status: 'done' }),
      task('this-morning.md', { due: '2026-03-10T09:00' }),
      task('tonight.md', { due: '2026-03-10T20:00' }),
      task('tomorrow.md', { due: '2026-03-11' }),
      task('week.md', { due: '2026-03-17' }),
      task('later.md', { due: '2026-03-18' }),
      task('none.md'),
      task('bad.md', { due: 'someday' }),
      task('daily.md', { due: '2026-01-01', recurrence: 'DTSTART:20260101;FREQ=DAILY' }),
    ];
    assert.deepEqual(grouped(s, 'due'), [
      ['Overdue', ['late.md', 'this-morning.md']],
      ['Today', ['tonight.md', 'daily.md']],
      ['Tomorrow', ['tomorrow.md']],
      ['Next seven days', ['week.md']],
      ['Later', ['late-done.md', 'later.md']],
      ['No due date', ['none.md']],
      ['Invalid date', ['bad.md']],
    ]);
  });

  it('scheduled buckets and completedDate groups (newest first)', () => {
    const s = [
      task('past.md', { scheduled: '2026-03-01', completedDate: '2026-03-02' }),
      task('today.md', { scheduled: '2026-03-10', completedDate: '2026-03-05' }),
      task('none.md'),
    ];
    assert.deepEqual(
      grouped(s, 'scheduled').map(([k]) => k),
      ['Past scheduled', 'Today', 'No scheduled date'],
    );
    assert.deepEqual(
      grouped(s, 'completedDate').map(([k]) => k),
      ['2026-03-05', '2026-03-02', 'Not completed'],
    );
  });

  it('user field buckets', () => {
    const s = [
      task('1.md', { effort: 10, billable: false }),
      task('2.md', { effort: 2, billable: true }),
      task('3.md'),
    ];
    assert.deepEqual(
      grouped(s, 'user:effort').map(([k]) => k),
      ['2', '10', 'No value'],
    );
    assert.deepEqual(
      grouped(s, 'user:billable').map(([k]) => k),
      ['true', 'false', 'No value'],
    );
  });
});

describe('runQuery', () => {
  it('returns tasks, total and filtered; grouping by tags keeps counts free of duplicates', () => {
    const tasks = [
      task('a.md', { tags: ['task', 'x', 'y'], due: '2026-03-02' }),
      task('b.md', { tags: ['task', 'y'], due: '2026-03-01' }),
      task('c.md', { tags: ['task'], status: 'done' }),
    ];
    const result = runQuery({ ...and(cond('status', 'is-not', 'done')), groupKey: 'tags' }, env(tasks));
    assert.equal(result.total, 3);
    assert.equal(result.filtered, 2);
    assert.deepEqual(paths(result.tasks), ['b.md', 'a.md']);
    assert.equal(new Set(result.tasks).size, result.tasks.length);
  });

  it('sorts within groups', () => {
    const tasks = [
      task('a.md', { priority: 'low', title: 'b' }),
      task('b.md', { priority: 'high', title: 'z' }),
      task('c.md', { priority: 'low', title: 'a' }),
    ];
    const result = runQuery({ ...and(), groupKey: 'priority', sortKey: 'title' }, env(tasks));
    assert.deepEqual(paths(result.tasks), ['b.md', 'c.md', 'a.md']);
  });
});

describe('runQuery paging', () => {
  const tasks = ['a', 'b', 'c', 'd', 'e'].map((p, i) =>
    task(`${p}.md`, { priority: i % 2 === 0 ? 'high' : 'low', due: `2026-03-0${i + 1}` }),
  );

  it('returns the page of the sorted result; filtered counts every match', () => {
    const result = runQuery({ ...and(), limit: 2, offset: 1 }, env(tasks));
    assert.deepEqual(paths(result.tasks), ['b.md', 'c.md']);
    assert.equal(result.filtered, 5);
    assert.equal(result.total, 5);
    assert.deepEqual(paths(runQuery({ ...and(), offset: 4 }, env(tasks)).tasks), ['e.md']);
    assert.deepEqual(runQuery({ ...and(), offset: 9 }, env(tasks)).tasks, []);
  });

  it('pages across groups and keeps the groups of the page', () => {
    const result = runQuery({ ...and(), groupKey: 'priority', limit: 3, offset: 2 }, env(tasks));
    // high: a, c, e; low: b, d.
    assert.deepEqual(paths(result.tasks), ['e.md', 'b.md', 'd.md']);
    assert.deepEqual(
      result.groups.map((g) => [g.key, paths(g.tasks)]),
      [
        ['high', ['e.md']],
        ['low', ['b.md', 'd.md']],
      ],
    );
  });
});
