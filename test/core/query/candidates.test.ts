import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { candidates } from '../../../src/core/query/candidates.js';
import { QueryContext } from '../../../src/core/query/context.js';
import { runQuery } from '../../../src/core/query/run-query.js';
import type { FilterNode } from '../../../src/core/query/types.js';
import { env, task } from './fixtures.js';

const STATUSES = ['none', 'open', 'in-progress', 'done'];
const PRIORITIES = ['none', 'low', 'normal', 'high'];

/** Contexts of every kind a note can give: none, repeated, mixed case, other types, not a list. */
const CONTEXTS: unknown[] = [
  ['@phone'],
  [],
  ['@Home', '@phone-call'],
  undefined,
  ['@office', '@office'],
  ['@smartphone', null, 42],
  '@phone',
  [7],
];

/** 400 tasks with every combination of status, priority and a few other fields, in path order. */
const TASKS = Array.from({ length: 400 }, (_, i) =>
  task(`Tasks/t${String(i).padStart(3, '0')}.md`, {
    status: STATUSES[i % 4],
    priority: i % 10 === 3 ? 'high' : PRIORITIES[i % 3],
    contexts: CONTEXTS[i % CONTEXTS.length] as string[],
    due: `2026-03-${String((i % 28) + 1).padStart(2, '0')}`,
  }),
);
const CTX = new QueryContext(env(TASKS));

const cond = (property: string, operator: string, value?: unknown) => ({
  type: 'condition',
  id: `${property}-${operator}`,
  property,
  operator,
  ...(value === undefined ? {} : { value }),
});
const group = (conjunction: 'and' | 'or', ...children: unknown[]) => ({
  type: 'group',
  id: 'root',
  conjunction,
  children,
});

describe('query candidates', () => {
  it('narrows an AND with `status is` to the tasks of that status, in list order', () => {
    const root = group('and', cond('status', 'is', 'done'), cond('title', 'contains', 't0')) as FilterNode;
    const got = candidates(TASKS, root, CTX);
    assert.deepEqual(
      got.map((t) => t.path),
      TASKS.filter((t) => t.status === 'done').map((t) => t.path),
    );
  });

  it('narrows an AND with both `status is` and `priority is` to the tasks with both, in list order', () => {
    const root = group('and', cond('status', 'is', 'open'), cond('priority', 'is', 'high')) as FilterNode;
    const got = candidates(TASKS, root, CTX);
    const both = TASKS.filter((t) => t.status === 'open' && t.priority === 'high');
    assert.ok(both.length > 0 && both.length < 40);
    assert.deepEqual(
      got.map((t) => t.path),
      both.map((t) => t.path),
    );
  });

  it('narrows an AND with `contexts contains` to the tasks with a matching context, in list order', () => {
    const root = group(
      'and',
      cond('contexts', 'contains', 'PHONE'),
      cond('status', 'is', 'open'),
    ) as FilterNode;
    const phone = (t: { contexts?: unknown }): boolean =>
      (Array.isArray(t.contexts) ? t.contexts : [t.contexts]).some((c) =>
        String(c ?? '')
          .toLowerCase()
          .includes('phone'),
      );
    const expected = TASKS.filter((t) => t.status === 'open' && phone(t));
    assert.ok(expected.length > 10);
    assert.deepEqual(
      candidates(TASKS, root, CTX).map((t) => t.path),
      expected.map((t) => t.path),
    );
  });

  it('leaves every other query to the whole list', () => {
    for (const root of [
      group('or', cond('status', 'is', 'open')),
      group('and', cond('status', 'is-not', 'open')),
      group('and', cond('status', 'is', ['open', 'done'])),
      group('and', cond('title', 'is', 'x')),
      group('and', cond('contexts', 'does-not-contain', '@phone')),
      // Unfinished conditions are left out of the filter (they match every task), so they narrow nothing.
      group('and', cond('status', 'is', '')),
      group('and', cond('contexts', 'contains', [])),
      group('and', cond('contexts', 'contains', null)),
      cond('status', 'is', 'open'),
    ]) {
      assert.equal(candidates(TASKS, root as FilterNode, CTX), TASKS, JSON.stringify(root));
    }
  });

  it('gives every query the result a filter over the whole list gives', () => {
    const queries = [
      group('and', cond('status', 'is', 'open'), cond('contexts', 'contains', '@phone')),
      group('and', cond('priority', 'is', 'low'), cond('status', 'is', 'done')),
      group(
        'and',
        cond('status', 'is', 'open'),
        cond('priority', 'is', 'high'),
        cond('status', 'is', 'done'),
      ),
      group(
        'and',
        cond('priority', 'is', 'high'),
        cond('status', 'is', 'open'),
        cond('contexts', 'contains', '@phone'),
      ),
      group('and', cond('status', 'is', 'nonexistent')),
      group('and', cond('contexts', 'contains', '@phone'), cond('priority', 'is', 'high')),
      group('and', cond('contexts', 'contains', ['home', '@OFF']), cond('status', 'is', 'done')),
      group('and', cond('contexts', 'contains', '4'), cond('contexts', 'contains', 'smart')),
      group('and', cond('contexts', 'contains', '7')),
      group('and', cond('contexts', 'contains', 'nothing-has-this')),
      group('and', cond('status', 'is', ''), cond('priority', 'is', 'high')),
      group('and', cond('contexts', 'contains', ''), cond('status', 'is', 'open')),
      group(
        'and',
        cond('status', 'is', 'open'),
        group('or', cond('priority', 'is', 'high'), cond('due', 'is-before', '2026-03-05')),
      ),
      group('or', cond('status', 'is', 'open'), cond('priority', 'is', 'high')),
    ];
    for (const root of queries) {
      for (const sort of [
        {},
        { sortKey: 'due', sortDirection: 'desc' },
        { sortKey: 'priority', limit: 7, offset: 3 },
      ]) {
        const query = { ...root, ...sort };
        const indexed = runQuery(query, env(TASKS));
        // Nested in an AND with a condition every task meets, the query is the same but no
        // longer narrowed: the whole list is filtered.
        const whole = runQuery({ ...group('and', root, cond('path', 'is-not-empty')), ...sort }, env(TASKS));
        assert.deepEqual(
          indexed.tasks.map((t) => t.path),
          whole.tasks.map((t) => t.path),
          JSON.stringify(query),
        );
        assert.equal(indexed.filtered, whole.filtered);
      }
    }
  });
});
