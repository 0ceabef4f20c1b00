import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detachString } from '../../src/core/detach-string.js';

describe('detachString', () => {
  it('gives back every string exactly, whatever its characters', () => {
    const samples = [
      '',
      'open',
      'twelve chars',
      'thirteen char',
      'Prepare conference talk 4737',
      '2026-10-14T00:00:00.000Z',
      'quotes " and \\ backslashes \\" and \'single\'',
      'control \u0000 \u0001 \u001f \t \n \r characters in a value',
      'Übergabe an das Team — naïve café 日本語のメモ',
      'astral 😀🎉 characters and a flag 🇳🇿 in a title',
      'a lone high surrogate \ud800 and a lone low one \udc00 in a value',
      'x'.repeat(100_000),
    ];
    for (const s of samples) {
      // A substring, as the parsers produce it, and the string itself.
      const cut = `>>${s}<<`.slice(2, -2);
      assert.equal(detachString(cut), s);
      assert.equal(detachString(s), s);
    }
  });
});
