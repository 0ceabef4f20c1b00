/**
 * Both signing schemes, checked the way receivers check them: the seed's hex HMAC recomputed
 * with node:crypto, Standard Webhooks with the `standardwebhooks` package; and secret rotation,
 * during which both secrets sign.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { Webhook as StandardVerifier } from 'standardwebhooks';
import { isDomainError } from '../../../src/core/errors.js';
import {
  generateId,
  generateSecret,
  isStandardSecret,
  signStandard,
  signTaskdown,
} from '../../../src/core/webhooks/signer.js';
import type { ReceivedRequest } from '../../helpers/receiver.js';
import { createHarness, task, type Harness } from './harness.js';

const headersOf = (req: ReceivedRequest): Record<string, string> =>
  Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));

const verifies = (secret: string, req: ReceivedRequest): boolean => {
  try {
    new StandardVerifier(secret).verify(req.raw.toString('utf8'), headersOf(req));
    return true;
  } catch {
    return false;
  }
};

describe('signatures', () => {
  it('taskdown: lowercase hex HMAC-SHA256 keyed with the secret text (known vector)', () => {
    assert.equal(
      signTaskdown('key', 'The quick brown fox jumps over the lazy dog'),
      'f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8',
    );
    const secret = 'ab'.repeat(32);
    const body = '{"event":"task.created","t":"Café ☕"}';
    assert.equal(signTaskdown(secret, body), createHmac('sha256', secret).update(body, 'utf8').digest('hex'));
    assert.notEqual(
      signTaskdown(secret, body),
      createHmac('sha256', Buffer.from(secret, 'hex')).update(body).digest('hex'),
    );
  });

  it('standard: v1 signatures that the standardwebhooks package verifies', () => {
    const secret = generateSecret('standard');
    const timestamp = Math.floor(Date.now() / 1000);
    const body = '{"event":"task.created"}';
    const headers = {
      'webhook-id': 'del_1',
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signStandard(secret, 'del_1', timestamp, body),
    };
    assert.match(headers['webhook-signature'], /^v1,[A-Za-z0-9+/]+=*$/);
    assert.doesNotThrow(() => new StandardVerifier(secret).verify(body, headers));
    assert.throws(() => new StandardVerifier(generateSecret('standard')).verify(body, headers));
    assert.throws(() => new StandardVerifier(secret).verify(`${body} `, headers));
  });

  it('generates secrets of each scheme and tells which ones can key Standard Webhooks', () => {
    assert.match(generateSecret('taskdown'), /^[0-9a-f]{64}$/);
    const standard = generateSecret('standard');
    assert.match(standard, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(isStandardSecret(standard), true);
    assert.equal(
      isStandardSecret(generateSecret('taskdown')),
      true,
      '64 hex characters are base64 of 48 bytes',
    );
    assert.equal(isStandardSecret('whsec_c2hvcnQ='), false, 'too short');
    assert.equal(isStandardSecret('s3cret'), false);
    assert.equal(isStandardSecret('whsec_not base64!'), false);
  });

  it('generates unique prefixed ids', () => {
    assert.match(generateId('wh', 1760000000000), /^wh_1760000000000_[0-9a-z]{10}$/);
    const ids = new Set(Array.from({ length: 5000 }, () => generateId('del', 1)));
    assert.equal(ids.size, 5000);
  });
});

describe('signed deliveries and secret rotation', () => {
  let h: Harness;
  beforeEach(async () => {
    // Standard Webhooks receivers refuse timestamps more than five minutes from their clock.
    h = await createHarness({ start: Date.now() });
  });
  afterEach(() => h.close());

  it('signing "standard": webhook-id, webhook-timestamp, webhook-signature, and X-Service-Event', async () => {
    const hook = await h.service.create({
      url: h.receiver.url,
      events: ['task.created'],
      signing: 'standard',
    });
    assert.match(hook.secret, /^whsec_/);
    h.emit('task.created', { task: task() });
    const [req] = await h.receiver.waitFor(1);
    assert.ok(req);
    assert.equal(verifies(hook.secret, req), true);
    assert.equal(req.headers['webhook-timestamp'], String(Math.floor(h.clock.now() / 1000)));
    assert.equal(req.headers['x-service-event'], 'task.created');
    assert.equal(req.headers['x-service-signature'], undefined);
    await h.until(() => h.deliveries()[0]?.status === 'success');
    assert.equal(req.headers['webhook-id'], h.deliveries()[0]?.id);
  });

  it('refuses signing "standard" with a secret that cannot key it', async () => {
    await assert.rejects(
      h.service.create({
        url: h.receiver.url,
        events: ['task.created'],
        signing: 'standard',
        secret: 's3cret',
      }),
      (err) => isDomainError(err) && err.code === 'INVALID' && /whsec_/.test(err.message),
    );
    const hex = await h.service.create({ url: h.receiver.url, events: ['task.created'], secret: 'short' });
    await assert.rejects(h.service.update(hex.id, { signing: 'standard' }), /whsec_/);
    assert.equal(h.service.get(hex.id).signing, 'taskdown', 'nothing changed');
  });

  it('switches an existing webhook to Standard Webhooks with its secret unchanged', async () => {
    const hook = await h.service.create({ url: h.receiver.url, events: ['task.created'] });
    const patched = await h.service.update(hook.id, { signing: 'standard' });
    assert.equal(patched.signing, 'standard');
    h.emit('task.created', { task: task() });
    const [req] = await h.receiver.waitFor(1);
    assert.equal(verifies(hook.secret, req!), true);
  });

  it('standard rotation: both secrets sign during the grace period, then only the new one', async () => {
    const hook = await h.service.create({
      url: h.receiver.url,
      events: ['task.created'],
      signing: 'standard',
    });
    const rotated = h.service.rotateSecret(hook.id, 60);
    assert.match(rotated.secret, /^whsec_/);
    assert.notEqual(rotated.secret, hook.secret);
    assert.equal(rotated.previousSecretExpiresAt, new Date(h.clock.now() + 60_000).toISOString());
    assert.equal(h.service.get(hook.id).previousSecretExpiresAt, rotated.previousSecretExpiresAt);
    h.emit('task.created', { task: task() });
    const [during] = await h.receiver.waitFor(1);
    assert.equal(String(during?.headers['webhook-signature']).split(' ').length, 2);
    assert.equal(verifies(hook.secret, during!), true, 'the old secret still verifies');
    assert.equal(verifies(rotated.secret, during!), true, 'the new secret verifies');
    // The attempt's outcome is recorded before the clock moves: otherwise its deadline passes in
    // the jump, and its retry, due within the grace, arrives signed with both secrets.
    await h.until(() => h.deliveries().every((d) => d.status === 'success'));
    await h.clock.advance(60_000);
    h.emit('task.created', { task: task() });
    const [, after] = await h.receiver.waitFor(2);
    assert.equal(verifies(hook.secret, after!), false, 'the old secret expired');
    assert.equal(verifies(rotated.secret, after!), true);
    assert.equal(h.service.get(hook.id).previousSecretExpiresAt, undefined);
  });

  it('taskdown rotation: X-Service-Signature with the new secret, X-Service-Signature-Previous with the old', async () => {
    const hook = await h.service.create({ url: h.receiver.url, events: ['task.created'] });
    const rotated = h.service.rotateSecret(hook.id);
    assert.match(rotated.secret, /^[0-9a-f]{64}$/);
    assert.equal(rotated.previousSecretExpiresAt, new Date(h.clock.now() + 86_400_000).toISOString());
    h.emit('task.created', { task: task() });
    const [req] = await h.receiver.waitFor(1);
    const body = req!.raw.toString('utf8');
    assert.equal(req?.headers['x-service-signature'], signTaskdown(rotated.secret, body));
    assert.equal(req?.headers['x-service-signature-previous'], signTaskdown(hook.secret, body));
    // No grace: the old secret stops at once.
    const again = h.service.rotateSecret(hook.id, 0);
    h.emit('task.created', { task: task() });
    const [, next] = await h.receiver.waitFor(2);
    assert.equal(next?.headers['x-service-signature'], signTaskdown(again.secret, next!.raw.toString()));
    assert.equal(next?.headers['x-service-signature-previous'], undefined);
  });

  it('refuses a grace period that is not 0 to 604800 whole seconds', () => {
    return h.service.create({ url: h.receiver.url, events: ['task.created'] }).then((hook) => {
      for (const grace of [-1, 1.5, 604_801]) {
        assert.throws(() => h.service.rotateSecret(hook.id, grace), /graceSeconds/);
      }
      assert.throws(() => h.service.rotateSecret('wh_nope'), /Webhook not found/);
    });
  });
});
