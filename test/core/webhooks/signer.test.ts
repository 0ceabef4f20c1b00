import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { generateId, generateSecret, sign } from '../../../src/core/webhooks/signer.js';

describe('webhook signer', () => {
  it('is lowercase hex HMAC-SHA256 (known vector)', () => {
    assert.equal(
      sign('key', 'The quick brown fox jumps over the lazy dog'),
      'f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8',
    );
  });

  it('keys with the secret text, not its hex-decoded bytes', () => {
    const secret = 'ab'.repeat(32);
    const body = Buffer.from('{"event":"task.created"}');
    assert.equal(sign(secret, body), createHmac('sha256', secret).update(body).digest('hex'));
    assert.notEqual(
      sign(secret, body),
      createHmac('sha256', Buffer.from(secret, 'hex')).update(body).digest('hex'),
    );
  });

  it('signs bytes: a string and its UTF-8 buffer give the same signature', () => {
    const text = '{"title":"Café ☕"}';
    assert.equal(sign('s', text), sign('s', Buffer.from(text, 'utf8')));
  });

  it('equals node:crypto HMAC for short, block-sized, long, empty and non-ASCII secrets', () => {
    const bodies = ['', '{}', 'x'.repeat(1000), '{"t":"naïve ☕"}'];
    for (const secret of [
      '',
      'k',
      'a'.repeat(64),
      'b'.repeat(65),
      'c'.repeat(300),
      'clé-✓',
      generateSecret(),
    ]) {
      for (const body of bodies) {
        assert.equal(sign(secret, body), createHmac('sha256', secret).update(body).digest('hex'), secret);
        assert.equal(sign(secret, body), sign(secret, body), 'stable when signed twice');
      }
    }
  });

  it('generates 64-hex secrets and prefixed ids', () => {
    const a = generateSecret();
    assert.match(a, /^[0-9a-f]{64}$/);
    assert.notEqual(a, generateSecret());
    assert.match(generateId('wh', 1760000000000), /^wh_1760000000000_[0-9a-z]{10}$/);
    const ids = new Set(Array.from({ length: 5000 }, () => generateId('del', 1)));
    assert.equal(ids.size, 5000);
  });
});
