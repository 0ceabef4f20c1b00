import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { QueryContext } from '../../../src/core/query/context.js';
import { compileFilter, isEmptyValue } from '../../../src/core/query/evaluate.js';
import { parseFilterQuery } from '../../../src/core/query/validate.js';
import type { QueryEnv } from '../../../src/core/query/types.js';
import type { TaskInfo } from '../../../src/core/tasks/task-info.js';
import { and, cond, env, or, SETTINGS, task } from './fixtures.js';

function match(tasks: TaskInfo[], query: unknown, extra: Partial<QueryEnv> = {}): string[] {
  const e = env(tasks, extra);
  const parsed = parseFilterQuery(query, SETTINGS);
  const p = compileFilter(parsed.root, new QueryContext(e));
  return tasks.filter(p).map((t) => t.path);
}

const A = task('a.md', { title: 'Write report', status: 'open', priority: 'high', due: '2026-03-09' });
const B = task('b.md', { title: 'Review', status: 'done', priority: 'low', due: '2026-03-10T09:00' });
const C = task('c.md', { title: 'Call Bob', status: 'in-progress', scheduled: '2026-03-12' });

describe('FilterQuery evaluation: groups', () => {
  it('an empty group and an all-placeholder group match everything', () => {
    assert.deepEqual(match([A, B, C], and()), ['a.md', 'b.md', 'c.md']);
    assert.deepEqual(match([A, B, C], and(cond('', 'is', 'x'), cond('title', 'is', ''))), [
      'a.md',
      'b.md',
      'c.md',
    ]);
  });

  it('and / or and nested groups', () => {
    assert.deepEqual(
      match([A, B, C], and(cond('status', 'is-not', 'done'), cond('priority', 'is', 'high'))),
      ['a.md'],
    );
    assert.deepEqual(match([A, B, C], or(cond('status', 'is', 'done'), cond('priority', 'is', 'high'))), [
      'a.md',
      'b.md',
    ]);
    const nested = and(
      cond('status', 'is-not', 'none'),
      or(cond('title', 'contains', 'bob'), and(cond('priority', 'is', 'low'), cond('due', 'is-not-empty'))),
    );
    assert.deepEqual(match([A, B, C], nested), ['b.md', 'c.md']);
  });

  it('drops unfinished conditions inside a group and accepts a condition root', () => {
    assert.deepEqual(match([A, B, C], and(cond('priority', 'is', 'high'), cond('title', 'is', null))), [
      'a.md',
    ]);
    assert.deepEqual(match([A, B, C], cond('title', 'is', 'Review')), ['b.md']);
  });
});

describe('FilterQuery evaluation: operators', () => {
  it('is / is-not are case-sensitive strict equality; any pair of a list matches', () => {
    assert.deepEqual(match([A, B, C], and(cond('title', 'is', 'review'))), []);
    assert.deepEqual(match([A, B, C], and(cond('title', 'is-not', 'Review'))), ['a.md', 'c.md']);
    assert.deepEqual(match([A, B, C], and(cond('status', 'is', ['open', 'done']))), ['a.md', 'b.md']);
  });

  it('contains / does-not-contain are case-insensitive substrings, a list means any', () => {
    assert.deepEqual(match([A, B, C], and(cond('title', 'contains', 'REP'))), ['a.md']);
    assert.deepEqual(match([A, B, C], and(cond('title', 'contains', ['bob', 'view']))), ['b.md', 'c.md']);
    assert.deepEqual(match([A, B, C], and(cond('title', 'does-not-contain', 'bob'))), ['a.md', 'b.md']);
    assert.deepEqual(match([A, B, C], and(cond('path', 'contains', 'C.MD'))), ['c.md']);
  });

  it('contexts, blockedBy and blocking use substring matching over the list', () => {
    const x = task('x.md', {
      contexts: ['@office', '@home'],
      blockedBy: [{ uid: 'Draft docs', reltype: 'FINISHTOSTART' }],
    });
    const y = task('y.md', { contexts: [], blocking: ['x.md'] });
    assert.deepEqual(match([x, y], and(cond('contexts', 'contains', 'office'))), ['x.md']);
    assert.deepEqual(match([x, y], and(cond('contexts', 'does-not-contain', 'office'))), ['y.md']);
    assert.deepEqual(match([x, y], and(cond('blockedBy', 'contains', 'draft'))), ['x.md']);
    assert.deepEqual(match([x, y], and(cond('blocking', 'contains', 'x.md'))), ['y.md']);
    assert.deepEqual(match([x, y], and(cond('contexts', 'is-empty'))), ['y.md']);
  });

  it('tags: exact, hierarchical child, substring, and exclusions with -', () => {
    const w = task('w.md', { tags: ['task', 'work/urgent'] });
    const h = task('h.md', { tags: ['task', 'Home'] });
    const p = task('p.md', { tags: ['task', 'homework'] });
    const all = [w, h, p];
    assert.deepEqual(match(all, and(cond('tags', 'contains', 'work'))), ['w.md', 'p.md']);
    assert.deepEqual(match(all, and(cond('tags', 'contains', '#home'))), ['h.md', 'p.md']);
    assert.deepEqual(match(all, and(cond('tags', 'contains', ['home', '-homework']))), ['h.md']);
    assert.deepEqual(match(all, and(cond('tags', 'contains', '-work'))), ['h.md']);
    assert.deepEqual(match(all, and(cond('tags', 'does-not-contain', 'home'))), ['w.md']);
  });

  it('projects: display-name equality and same-note links, not substrings', () => {
    const site = task('Projects/Website.md', { title: 'Website relaunch' });
    const t1 = task('t1.md', { projects: ['[[Website]]'] });
    const t2 = task('t2.md', { projects: ['[[Projects/Website|the site]]'] });
    const t3 = task('t3.md', { projects: ['Web'] });
    const t4 = task('t4.md', { projects: ['[Site](Projects/Website.md)'] });
    const all = [site, t1, t2, t3, t4];
    assert.deepEqual(match(all, and(cond('projects', 'contains', '[[Website]]'))), [
      't1.md',
      't2.md',
      't4.md',
    ]);
    // A link's own text (alias) wins over the note's title.
    assert.deepEqual(match(all, and(cond('projects', 'contains', 'Website relaunch'))), ['t1.md']);
    assert.deepEqual(match(all, and(cond('projects', 'contains', 'the site'))), ['t2.md']);
    assert.deepEqual(match(all, and(cond('projects', 'contains', 'web'))), ['t3.md']);
    assert.deepEqual(match(all, and(cond('projects', 'does-not-contain', '[[Website]]'))), [
      'Projects/Website.md',
      't3.md',
    ]);
  });

  it('uses an injected link resolver when given', () => {
    const t1 = task('t1.md', { projects: ['[[Alias note]]'] });
    const parent = task('real/parent.md');
    const resolveLink = (link: string): string | undefined =>
      link.includes('Alias note') ? 'real/parent.md' : undefined;
    assert.deepEqual(match([t1, parent], and(cond('hasSubtasks', 'is-checked')), { resolveLink }), [
      'real/parent.md',
    ]);
  });

  it('date is / is-not compare the date part; relative values use the local today', () => {
    // NOW is 2026-03-10 local.
    assert.deepEqual(match([A, B, C], and(cond('due', 'is', '2026-03-09'))), ['a.md']);
    assert.deepEqual(match([A, B, C], and(cond('due', 'is', 'today'))), ['b.md']);
    assert.deepEqual(match([A, B, C], and(cond('due', 'is', 'yesterday'))), ['a.md']);
    assert.deepEqual(match([A, B, C], and(cond('due', 'is', '2026-03-10T17:00'))), ['b.md']);
    assert.deepEqual(match([A, B, C], and(cond('due', 'is-not', 'today'))), ['a.md', 'c.md']);
    assert.deepEqual(match([A, B, C], and(cond('scheduled', 'is', 'in 2 days'))), ['c.md']);
  });

  it('is-before / is-after are time-aware; a date-only value is the end of its day', () => {
    const early = task('e.md', { due: '2026-02-27T09:00' });
    const late = task('l.md', { due: '2026-02-27T10:30' });
    const day = task('d.md', { due: '2026-02-27' });
    const none = task('n.md');
    const all = [early, late, day, none];
    assert.deepEqual(match(all, and(cond('due', 'is-before', '2026-02-27T10:00'))), ['e.md']);
    assert.deepEqual(match(all, and(cond('due', 'is-after', '2026-02-27T10:00'))), ['l.md', 'd.md']);
    assert.deepEqual(match(all, and(cond('due', 'is-before', '2026-02-27'))), ['e.md', 'l.md']);
    assert.deepEqual(match(all, and(cond('due', 'is-on-or-before', '2026-02-27'))), ['e.md', 'l.md', 'd.md']);
    assert.deepEqual(match(all, and(cond('due', 'is-on-or-after', '2026-02-27T23:00'))), [
      'e.md',
      'l.md',
      'd.md',
    ]);
    assert.deepEqual(match(all, and(cond('due', 'is-after', '2026-02-28'))), []);
    assert.deepEqual(match(all, and(cond('due', 'is-empty'))), ['n.md']);
  });

  it('relative is-before: "in 1 week" and "2 weeks ago"', () => {
    const soon = task('s.md', { due: '2026-03-16' });
    const far = task('f.md', { due: '2026-03-18' });
    const old = task('o.md', { dateCreated: '2026-02-20T10:00:00.000+13:00' });
    assert.deepEqual(match([soon, far], and(cond('due', 'is-on-or-before', 'in 1 week'))), ['s.md']);
    assert.deepEqual(match([old], and(cond('dateCreated', 'is-before', '2 weeks ago'))), ['o.md']);
  });

  it('numeric operators parse both sides; a missing value fails comparisons but matches is-not', () => {
    const t30 = task('30.md', { timeEstimate: 30 });
    const t90 = task('90.md', { timeEstimate: 90 });
    const none = task('none.md');
    const all = [t30, t90, none];
    assert.deepEqual(match(all, and(cond('timeEstimate', 'is-greater-than', 30))), ['90.md']);
    assert.deepEqual(match(all, and(cond('timeEstimate', 'is-greater-than-or-equal', '30'))), [
      '30.md',
      '90.md',
    ]);
    assert.deepEqual(match(all, and(cond('timeEstimate', 'is-less-than', 90))), ['30.md']);
    assert.deepEqual(match(all, and(cond('timeEstimate', 'is-less-than-or-equal', 90))), ['30.md', '90.md']);
    assert.deepEqual(match(all, and(cond('timeEstimate', 'is', '30'))), ['30.md']);
    assert.deepEqual(match(all, and(cond('timeEstimate', 'is-not', 30))), ['90.md', 'none.md']);
  });

  it('boolean properties: archived, dependencies, hasSubtasks, status.isCompleted', () => {
    const arch = task('arch.md', { archived: true, tags: ['task', 'archived'] });
    const blocked = task('blocked.md', { isBlocked: true, projects: ['[[parent]]'] });
    const blocking = task('blocking.md', { isBlocking: true, blocking: ['blocked.md'] });
    const parent = task('folder/parent.md', { status: 'done' });
    const all = [arch, blocked, blocking, parent];
    assert.deepEqual(match(all, and(cond('archived', 'is-checked'))), ['arch.md']);
    assert.deepEqual(match(all, and(cond('dependencies.isBlocked', 'is-checked'))), ['blocked.md']);
    assert.deepEqual(match(all, and(cond('dependencies.isBlocking', 'is-checked'))), ['blocking.md']);
    assert.deepEqual(match(all, and(cond('hasSubtasks', 'is-checked'))), ['folder/parent.md']);
    assert.deepEqual(match(all, and(cond('status.isCompleted', 'is-checked'))), ['folder/parent.md']);
    assert.deepEqual(match(all, and(cond('archived', 'is-not-checked'))), [
      'blocked.md',
      'blocking.md',
      'folder/parent.md',
    ]);
  });

  it('overdue: due date or time passed by the local clock, completed tasks excluded', () => {
    // NOW is 2026-03-10 12:00 local.
    const s = [
      task('yesterday.md', { due: '2026-03-09' }),
      task('morning.md', { due: '2026-03-10T09:00' }),
      task('today.md', { due: '2026-03-10' }),
      task('evening.md', { due: '2026-03-10T20:00' }),
      task('done.md', { due: '2026-03-01', status: 'done' }),
      task('none.md'),
    ];
    assert.deepEqual(match(s, and(cond('overdue', 'is-checked'))), ['yesterday.md', 'morning.md']);
    assert.deepEqual(match(s, and(cond('overdue', 'is-not-checked'))), [
      'today.md',
      'evening.md',
      'done.md',
      'none.md',
    ]);
  });

  it('status.isCompleted: a recurring task completed for today (local) counts as completed', () => {
    const daily = task('daily.md', {
      recurrence: 'DTSTART:20260101;FREQ=DAILY',
      complete_instances: ['2026-03-10'],
    });
    const other = task('other.md', {
      recurrence: 'DTSTART:20260101;FREQ=DAILY',
      complete_instances: ['2026-03-09'],
    });
    assert.deepEqual(match([daily, other], and(cond('status.isCompleted', 'is-checked'))), ['daily.md']);
    assert.deepEqual(match([daily, other], and(cond('recurrence', 'is-not-empty'))), [
      'daily.md',
      'other.md',
    ]);
  });

  it('is-empty treats blank strings and lists of blanks as empty', () => {
    assert.equal(isEmptyValue(['', '""', "''", '  ']), true);
    assert.equal(isEmptyValue(['x', '']), false);
    assert.equal(isEmptyValue('  '), true);
    assert.equal(isEmptyValue(0), false);
    assert.equal(isEmptyValue(false), false);
  });
});

describe('FilterQuery evaluation: user fields', () => {
  const u1 = task('u1.md', {
    effort: 5,
    billable: true,
    reviewDate: '2026-03-01',
    people: ['[[People/Ann Lee|Ann]]', 'bob'],
    client: 'Acme',
    customProperties: {
      effort: 5,
      billable: true,
      reviewDate: '2026-03-01',
      people: ['[[People/Ann Lee|Ann]]', 'bob'],
      client: 'Acme',
    },
  });
  const u2 = task('u2.md', { effort: '12', billable: 'TRUE', people: 'carol, dave', client: 'Other' });
  const u3 = task('u3.md', { billable: false, reviewDate: '2026-04-01' });
  const all = [u1, u2, u3];

  it('number fields compare numerically and support emptiness', () => {
    assert.deepEqual(match(all, and(cond('user:effort', 'is-greater-than', 6))), ['u2.md']);
    assert.deepEqual(match(all, and(cond('user:effort', 'is', '5'))), ['u1.md']);
    assert.deepEqual(match(all, and(cond('user:effort', 'is-empty'))), ['u3.md']);
  });

  it('boolean fields accept true and "true" (any case)', () => {
    assert.deepEqual(match(all, and(cond('user:billable', 'is-checked'))), ['u1.md', 'u2.md']);
    assert.deepEqual(match(all, and(cond('user:billable', 'is-not-checked'))), ['u3.md']);
  });

  it('date fields use date semantics', () => {
    assert.deepEqual(match(all, and(cond('user:review', 'is-before', 'today'))), ['u1.md']);
    assert.deepEqual(match(all, and(cond('user:review', 'is', '2026-04-01'))), ['u3.md']);
    assert.deepEqual(match(all, and(cond('user:review', 'is-not-empty'))), ['u1.md', 'u3.md']);
  });

  it('list fields match substrings of tokens, including a wikilink display name', () => {
    assert.deepEqual(match(all, and(cond('user:people', 'contains', 'ann'))), ['u1.md']);
    assert.deepEqual(match(all, and(cond('user:people', 'contains', 'DAVE'))), ['u2.md']);
    assert.deepEqual(match(all, and(cond('user:people', 'does-not-contain', 'bob'))), ['u2.md', 'u3.md']);
    assert.deepEqual(match(all, and(cond('user:people', 'is-empty'))), ['u3.md']);
  });

  it('text fields: is (case-sensitive) and contains (case-insensitive)', () => {
    assert.deepEqual(match(all, and(cond('user:client', 'is', 'Acme'))), ['u1.md']);
    assert.deepEqual(match(all, and(cond('user:client', 'contains', 'oth'))), ['u2.md']);
    assert.deepEqual(match(all, and(cond('user:client', 'is-not', 'Acme'))), ['u2.md', 'u3.md']);
  });
});
