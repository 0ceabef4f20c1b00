/** The wrong-token lockout, on an injected clock. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { ManualClock } from '../../../test/helpers/manual-clock.js';
import { echoRoute, shellWith } from '../../../test/helpers/http-shell.js';
import { AuthLockout } from './auth-lockout.js';

const silent = pino({ level: 'silent' });

describe('auth lockout', () => {
  it('locks a client out after maxFailures wrong tokens in the window, for lockMs', async () => {
    const clock = new ManualClock();
    const lockout = new AuthLockout({
      now: () => clock.now(),
      maxFailures: 3,
      windowMs: 10_000,
      lockMs: 30_000,
    });
    lockout.recordFailure('a', silent);
    lockout.recordFailure('a', silent);
    assert.equal(lockout.retryAfter('a'), 0);
    lockout.recordFailure('a', silent);
    assert.equal(lockout.retryAfter('a'), 30);
    assert.equal(lockout.retryAfter('b'), 0, 'other clients are unaffected');
    await clock.advance(29_001);
    assert.equal(lockout.retryAfter('a'), 1);
    await clock.advance(1_000);
    assert.equal(lockout.retryAfter('a'), 0);
  });

  it('forgets failures older than the window and after a success', async () => {
    const clock = new ManualClock();
    const lockout = new AuthLockout({ now: () => clock.now(), maxFailures: 3, windowMs: 10_000 });
    lockout.recordFailure('a', silent);
    lockout.recordFailure('a', silent);
    await clock.advance(10_000);
    lockout.recordFailure('a', silent);
    assert.equal(lockout.retryAfter('a'), 0, 'the window restarted');
    lockout.recordFailure('a', silent);
    lockout.recordSuccess('a');
    lockout.recordFailure('a', silent);
    assert.equal(lockout.retryAfter('a'), 0);
  });

  it('remembers a bounded number of clients', () => {
    const lockout = new AuthLockout({ now: () => 0, maxFailures: 2, maxClients: 2 });
    lockout.recordFailure('a', silent);
    lockout.recordFailure('b', silent);
    lockout.recordFailure('c', silent);
    lockout.recordFailure('a', silent); // 'a' was forgotten: this is its first failure again
    assert.equal(lockout.retryAfter('a'), 0);
    lockout.recordFailure('c', silent);
    assert.ok(lockout.retryAfter('c') > 0);
  });

  it('answers 429 with Retry-After through the shell, logs once per lockout, spares other clients', async () => {
    const clock = new ManualClock();
    const lockout = new AuthLockout({
      now: () => clock.now(),
      maxFailures: 5,
      windowMs: 60_000,
      lockMs: 60_000,
    });
    const { app, log } = await shellWith([echoRoute('/api/ping')], { token: () => 'right', lockout });
    const from = (remoteAddress: string, authorization?: string) =>
      app.inject({
        method: 'GET',
        url: '/api/ping',
        remoteAddress,
        headers: authorization ? { authorization } : {},
      });
    for (let i = 0; i < 5; i++) assert.equal((await from('10.0.0.1', 'Bearer wrong')).statusCode, 401);
    for (let i = 0; i < 3; i++) {
      const locked = await from('10.0.0.1', 'Bearer wrong');
      assert.equal(locked.statusCode, 429);
      assert.equal(locked.headers['retry-after'], '60');
      assert.equal(locked.json().success, false);
    }
    assert.equal(
      (await from('10.0.0.1', 'Bearer right')).statusCode,
      429,
      'no token is checked while locked',
    );
    assert.equal((await from('10.0.0.2', 'Bearer right')).statusCode, 200, 'another client is unaffected');
    assert.equal((await from('10.0.0.3')).statusCode, 401);
    assert.equal(log().match(/wrong tokens from 10\.0\.0\.1/g)?.length, 1, 'one log line per lockout');
    await clock.advance(60_000);
    assert.equal((await from('10.0.0.1', 'Bearer right')).statusCode, 200);
    await app.close();
  });

  it('does not count requests without an Authorization header', async () => {
    const lockout = new AuthLockout({ now: () => 0, maxFailures: 2 });
    const { app } = await shellWith([echoRoute('/api/ping')], { token: () => 'right', lockout });
    for (let i = 0; i < 5; i++)
      assert.equal((await app.inject({ method: 'GET', url: '/api/ping' })).statusCode, 401);
    const ok = await app.inject({
      method: 'GET',
      url: '/api/ping',
      headers: { authorization: 'Bearer right' },
    });
    assert.equal(ok.statusCode, 200);
    await app.close();
  });
});
