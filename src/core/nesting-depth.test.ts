import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkFieldDepth, MAX_FIELD_DEPTH, nestedDeeperThan } from './nesting-depth.js';

const nest = (levels: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < levels; i++) v = i % 2 ? [v] : { a: v };
  return v;
};

describe('nestedDeeperThan', () => {
  it('counts object and array levels', () => {
    assert.equal(nestedDeeperThan(1, 0), false);
    assert.equal(nestedDeeperThan({}, 0), true);
    assert.equal(nestedDeeperThan(nest(3), 3), false);
    assert.equal(nestedDeeperThan(nest(4), 3), true);
    assert.equal(nestedDeeperThan({ a: 1, b: [1, { c: 2 }] }, 3), false);
    assert.equal(nestedDeeperThan({ a: 1, b: [1, { c: [] }] }, 3), true);
  });

  it('handles values far deeper than the stack allows', () => {
    assert.equal(nestedDeeperThan(nest(200_000), 20), true);
  });
});

describe('checkFieldDepth', () => {
  it('names the field nested too deeply', () => {
    assert.doesNotThrow(() => checkFieldDepth({ ok: nest(MAX_FIELD_DEPTH) }));
    assert.throws(
      () => checkFieldDepth({ ok: 1, customFrontmatter: { deep: nest(MAX_FIELD_DEPTH) } }),
      /customFrontmatter is nested too deeply \(at most 16 levels\)/,
    );
  });
});
