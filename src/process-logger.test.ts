import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { logStyle } from './process-logger.js';

describe('log style', () => {
  it('is readable with colours on a terminal and JSON elsewhere by default', () => {
    assert.deepEqual(logStyle('auto', true, {}), { format: 'pretty', colour: true });
    assert.deepEqual(logStyle('auto', false, {}), { format: 'json', colour: false });
  });

  it('follows --log-format either way', () => {
    assert.deepEqual(logStyle('json', true, {}), { format: 'json', colour: false });
    assert.deepEqual(logStyle('pretty', false, {}), { format: 'pretty', colour: false });
    assert.deepEqual(logStyle('pretty', true, {}), { format: 'pretty', colour: true });
  });

  it('leaves colours out when the terminal asks for none', () => {
    assert.deepEqual(logStyle('auto', true, { NO_COLOR: '1' }), { format: 'pretty', colour: false });
    assert.deepEqual(logStyle('auto', true, { TERM: 'dumb' }), { format: 'pretty', colour: false });
    // NO_COLOR counts only when it is not empty (no-color.org).
    assert.deepEqual(logStyle('auto', true, { NO_COLOR: '' }), { format: 'pretty', colour: true });
  });
});
