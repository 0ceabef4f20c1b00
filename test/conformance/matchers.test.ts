import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyAssertion, deepMatch } from '../../conformance/lib/matchers.mjs';
import { skipReason, type Fixture } from '../../conformance/lib/suite.mjs';

const ctx = { input: { completionDate: '2026-03-01', nested: { a: [1] } } };

test('deepMatch: partial objects, exact arrays, strict scalars', () => {
  assert.equal(deepMatch({ a: 1, b: 2 }, { a: 1 }, ctx), null);
  assert.match(deepMatch({ a: 1 }, { a: 1, b: 2 }, ctx)!, /\$\.b/);
  assert.match(deepMatch([1, 2], [1], ctx)!, /expected 1 elements/);
  assert.notEqual(deepMatch(0, '', ctx), null);
  assert.notEqual(deepMatch(null, false, ctx), null);
});

test('deepMatch directives: $regex, $oneOf, $contains, $ref', () => {
  assert.equal(deepMatch('2026-03-01', { $regex: '^\\d{4}-' }, ctx), null);
  assert.notEqual(deepMatch(20260301, { $regex: '^\\d' }, ctx), null);
  assert.equal(deepMatch(null, { $oneOf: ['x', null] }, ctx), null);
  assert.notEqual(deepMatch('y', { $oneOf: ['x', { $regex: '^z' }] }, ctx), null);
  assert.equal(deepMatch([{ id: 1, x: 2 }, { id: 2 }], { $contains: [{ id: 2 }, { id: 1 }] }, ctx), null);
  assert.notEqual(deepMatch([{ id: 1 }], { $contains: [{ id: 3 }] }, ctx), null);
  assert.equal(deepMatch({ a: 1, b: 2 }, { $contains: { b: 2 } }, ctx), null);
  assert.equal(deepMatch('2026-03-01', { $ref: 'input.completionDate' }, ctx), null);
  assert.equal(deepMatch([1], { $ref: 'input.nested.a' }, ctx), null);
  assert.notEqual(deepMatch('x', { $ref: 'input.missing.deeper' }, ctx), null);
});

const fixture = (over: Partial<Fixture>): Fixture => ({
  id: 'x',
  section: '§0',
  profile: 'core-lite',
  operation: 'op',
  assertion: 'envelope_equals',
  input: {},
  ...over,
});

test('assertion kinds', () => {
  assert.notEqual(applyAssertion(fixture({ assertion: 'envelope_error' }), { ok: true, result: {} }), null);
  assert.equal(
    applyAssertion(fixture({ assertion: 'envelope_error', expect: { error: { $regex: 'bad' } } }), {
      ok: false,
      error: 'bad x',
    }),
    null,
  );
  const complete = fixture({
    assertion: 'recurrence_complete_invariants',
    input: {
      completionDate: '2026-03-01',
      recurrenceAnchor: 'completion',
      scheduled: '2026-02-01',
      due: '2026-02-03',
    },
  });
  const good = {
    completeInstances: ['2026-03-01'],
    skippedInstances: [],
    updatedRecurrence: 'DTSTART:20260301;FREQ=DAILY',
    nextScheduled: '2026-03-02',
    nextDue: '2026-03-04',
  };
  assert.equal(applyAssertion(complete, { ok: true, result: good }), null);
  assert.match(applyAssertion(complete, { ok: true, result: { ...good, nextDue: '2026-03-05' } })!, /offset/);
  assert.match(
    applyAssertion(complete, {
      ok: true,
      result: { ...good, updatedRecurrence: 'DTSTART:20260201;FREQ=DAILY' },
    })!,
    /20260301/,
  );
  const recalc = fixture({
    assertion: 'recurrence_recalculate_invariants',
    input: { referenceDate: '2026-03-01', skippedInstances: ['2026-03-02'] },
  });
  assert.match(
    applyAssertion(recalc, {
      ok: true,
      result: { updatedRecurrence: 'FREQ=DAILY', nextScheduled: '2026-03-02' },
    })!,
    /skipped/,
  );
  const create = fixture({ assertion: 'create_compat_invariants', expect: { ok: true } });
  assert.match(applyAssertion(create, { ok: true, result: { path: 'tasks/{title}.md' } })!, /braces/);
  assert.match(applyAssertion(fixture({}), { thrown: 'x' } as never)!, /malformed/);
});

test('profiles are cumulative except templating; capabilities must all be claimed', () => {
  const claim = { profiles: ['extended'], capabilities: ['links'] };
  assert.equal(skipReason(fixture({ profile: 'core-lite' }), claim), null);
  assert.match(skipReason(fixture({ profile: 'templating' }), claim)!, /profile/);
  assert.match(skipReason(fixture({ profile: 'extended', requires: ['links', 'rename'] }), claim)!, /rename/);
});
