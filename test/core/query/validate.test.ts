import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DomainError } from '../../../src/core/errors.js';
import { parseFilterQuery, MAX_DEPTH } from '../../../src/core/query/validate.js';
import { and, cond, or, SETTINGS } from './fixtures.js';

function rejects(query: unknown, message: RegExp): void {
  assert.throws(
    () => parseFilterQuery(query, SETTINGS),
    (err: unknown) => {
      assert.ok(err instanceof DomainError);
      assert.equal(err.code, 'INVALID');
      assert.match(err.message, message);
      return true;
    },
  );
}

describe('FilterQuery validation', () => {
  it('accepts a nested query and applies defaults', () => {
    const q = parseFilterQuery(
      and(cond('status', 'is', 'open'), or(cond('tags', 'contains', 'work'))),
      SETTINGS,
    );
    assert.equal(q.root.type, 'group');
    assert.deepEqual(q.options, { sortKey: 'due', sortDirection: 'asc', groupKey: 'none' });
  });

  it('accepts a condition as the root and every option', () => {
    const q = parseFilterQuery(
      {
        ...cond('title', 'contains', 'x'),
        sortKey: 'user:effort',
        sortDirection: 'desc',
        groupKey: 'project',
      },
      SETTINGS,
    );
    assert.equal(q.root.type, 'condition');
    assert.deepEqual(q.options, { sortKey: 'user:effort', sortDirection: 'desc', groupKey: 'project' });
  });

  it('accepts unfinished conditions (placeholder property, missing or empty value)', () => {
    parseFilterQuery(and(cond('', 'is'), cond('due', 'is-before', ''), cond('title', 'is', null)), SETTINGS);
  });

  it('rejects a body that is not an object', () => {
    rejects([], /the body must be a JSON object/);
    rejects('x', /the body must be a JSON object/);
  });

  it('accepts nodes without an id (nested groups of hand-written queries and the tn CLI)', () => {
    const q = parseFilterQuery(
      {
        type: 'group',
        conjunction: 'and',
        children: [
          {
            type: 'group',
            conjunction: 'or',
            children: [cond('due', 'is-before', '2025-08-20'), cond('tags', 'contains', 'urgent')],
          },
          { type: 'condition', property: 'priority', operator: 'is', value: 'high' },
        ],
      },
      SETTINGS,
    );
    assert.equal(q.root.type, 'group');
    assert.equal(q.root.id, undefined);
  });

  it('rejects an id that is not a string, naming the node', () => {
    rejects({ type: 'group', id: 7, conjunction: 'and', children: [] }, /at root: "id" must be a string/);
    rejects(
      and(cond('title', 'is', 'a'), { ...cond('title', 'is', 'b'), id: null }),
      /at root\.children\[1\]: "id" must be a string/,
    );
  });

  it('reads limit and offset on the root only', () => {
    assert.deepEqual(parseFilterQuery(and(), SETTINGS).page, { offset: 0 });
    assert.deepEqual(parseFilterQuery({ ...and(), limit: 5, offset: 10 }, SETTINGS).page, {
      offset: 10,
      limit: 5,
    });
    rejects({ ...and(), limit: 0 }, /at root: "limit" must be an integer of at least 1, got 0/);
    rejects({ ...and(), limit: '5' }, /"limit" must be an integer of at least 1, got "5"/);
    rejects({ ...and(), offset: -1 }, /"offset" must be an integer of at least 0/);
    rejects({ ...and(), offset: 1.5 }, /"offset" must be an integer/);
    rejects(and({ ...and(), limit: 3 }), /at root\.children\[0\]: "limit" is only allowed on the root node/);
  });

  it('rejects a bad node type, conjunction or children', () => {
    rejects({ type: 'rule', id: 'r' }, /"type" must be "group" or "condition", got "rule"/);
    rejects(
      { type: 'group', id: 'r', conjunction: 'xor', children: [] },
      /"conjunction" must be "and" or "or"/,
    );
    rejects({ type: 'group', id: 'r', conjunction: 'and' }, /a group needs a "children" array/);
    rejects(and('x'), /at root\.children\[0\]: each node must be an object/);
  });

  it('rejects unknown properties and unknown user fields', () => {
    rejects(and(cond('colour', 'is', 'red')), /at root\.children\[0\]: unknown property "colour"/);
    rejects(and(cond('user:nope', 'is', 'x')), /unknown user field "user:nope"/);
  });

  it('rejects unknown operators', () => {
    rejects(and(cond('title', 'equals', 'x')), /unknown operator "equals"; operators are: is, is-not/);
    rejects(and({ type: 'condition', id: 'c', property: 'title' }), /unknown operator undefined/);
  });

  it('rejects operators not valid for the property type, listing the valid ones', () => {
    rejects(
      and(cond('title', 'is-before', 'x')),
      /operator "is-before" is not valid for property "title" \(text\); use one of: is, is-not, contains/,
    );
    rejects(and(cond('archived', 'is', true)), /not valid for property "archived" \(boolean\)/);
    rejects(and(cond('path', 'is', 'a.md')), /not valid for property "path"/);
    rejects(and(cond('timeEstimate', 'is-empty')), /not valid for property "timeEstimate" \(number\)/);
    rejects(and(cond('recurrence', 'contains', 'DAILY')), /not valid for property "recurrence"/);
    rejects(
      and(cond('user:billable', 'is', true)),
      /not valid for property "user:billable" \(boolean\); use one of: is-checked, is-not-checked/,
    );
    rejects(and(cond('user:people', 'is', 'ann')), /not valid for property "user:people" \(list\)/);
  });

  it('rejects bad values with the reason', () => {
    rejects(
      and(cond('due', 'is-before', 'soonish')),
      /value "soonish" for "due" is not a date; use YYYY-MM-DD/,
    );
    rejects(and(cond('due', 'is', '2026-02-30')), /is not a date/);
    rejects(and(cond('due', 'is', 20260101)), /is not a date/);
    rejects(and(cond('user:review', 'is-after', 'later')), /for "user:review" is not a date/);
    rejects(
      and(cond('timeEstimate', 'is-greater-than', 'lots')),
      /value "lots" for "timeEstimate" is not a number/,
    );
    rejects(and(cond('user:effort', 'is', true)), /is not a number/);
    rejects(and(cond('projects', 'contains', ['[[A]]', '[[B]]'])), /must be a single project \(a string\)/);
    rejects(and(cond('title', 'is', { a: 1 })), /must be a string, a number or a list of them/);
    rejects(and(cond('tags', 'contains', [['x']])), /must be a string, a number or a list of them/);
  });

  it('accepts relative dates, date-times and numeric strings', () => {
    for (const v of [
      'today',
      'Tomorrow',
      'yesterday',
      'next week',
      'last week',
      'in 3 days',
      '1 day ago',
      'in 2 weeks',
      '3 weeks ago',
      '2026-01-05T09:30',
      '2026-01-05T09:30:00+02:00',
    ]) {
      parseFilterQuery(and(cond('due', 'is-on-or-after', v)), SETTINGS);
    }
    parseFilterQuery(and(cond('timeEstimate', 'is', '30')), SETTINGS);
  });

  it('rejects bad sort and group options', () => {
    rejects({ ...and(), sortKey: 'colour' }, /unknown sortKey "colour"; use one of: due, scheduled/);
    rejects({ ...and(), sortKey: 'user:nope' }, /"sortKey" names an unknown user field/);
    rejects({ ...and(), groupKey: 'week' }, /unknown groupKey "week"/);
    rejects({ ...and(), sortDirection: 'up' }, /"sortDirection" must be "asc" or "desc"/);
    rejects({ ...and(), sortKey: 3 }, /"sortKey" must be a string/);
    rejects({ ...and(), subgroupKey: 3 }, /"subgroupKey" must be a string/);
  });

  it('rejects bad nesting', () => {
    rejects(
      and({ ...and(), sortKey: 'title' }),
      /at root\.children\[0\]: "sortKey" is only allowed on the root node/,
    );
    rejects(and({ ...cond('title', 'is', 'a'), children: [] }), /a condition cannot have "children"/);
    let deep: Record<string, unknown> = cond('title', 'is', 'a');
    for (let i = 0; i <= MAX_DEPTH; i++) deep = and(deep);
    rejects(deep, /nested too deeply/);
  });
});
