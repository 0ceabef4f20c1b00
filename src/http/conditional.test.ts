/** Parsing of If-Match / If-None-Match values and the read-side comparison. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { entityTags, notModified, preconditionOf } from './conditional.js';

describe('entity tag lists', () => {
  it('reads *, quoted and weak tags, lists and repeated headers; a bare token counts as quoted', () => {
    assert.equal(entityTags(undefined), undefined);
    assert.deepEqual(entityTags('*'), ['*']);
    assert.deepEqual(entityTags('"a+b/c="'), ['"a+b/c="']);
    assert.deepEqual(entityTags(' "a" , W/"b",c'), ['"a"', 'W/"b"', '"c"']);
    assert.deepEqual(entityTags(['"a"', '"b,c"']), ['"a"', '"b,c"']);
    assert.deepEqual(preconditionOf({ 'if-match': '"x"' }), ['"x"']);
    assert.equal(preconditionOf({}), undefined);
  });

  it('If-None-Match compares weakly: W/ and * match, other tags do not', () => {
    assert.equal(notModified({ 'if-none-match': '"a"' }, '"a"'), true);
    assert.equal(notModified({ 'if-none-match': 'W/"a"' }, '"a"'), true);
    assert.equal(notModified({ 'if-none-match': '"x", "a"' }, '"a"'), true);
    assert.equal(notModified({ 'if-none-match': '*' }, '"a"'), true);
    assert.equal(notModified({ 'if-none-match': '"b"' }, '"a"'), false);
    assert.equal(notModified({}, '"a"'), false);
  });
});
