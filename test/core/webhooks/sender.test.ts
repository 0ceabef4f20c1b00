import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createHttpClient } from '../../../src/core/net/http-client.js';
import { AddressGuard } from '../../../src/core/net/address-guard.js';
import { createSender, type AttemptResult, type Sender } from '../../../src/core/webhooks/sender.js';
import { ManualClock } from '../../helpers/manual-clock.js';
import { startReceiver, type Receiver } from '../../helpers/receiver.js';

/** What an attempt's promise came to: its result, or the reason it was rejected with. */
function outcome(attempt: Promise<AttemptResult>): Promise<AttemptResult | string> {
  return attempt.then(
    (result) => result,
    (err: Error) => err.message,
  );
}

describe('webhook sender', () => {
  let receiver: Receiver;
  let clock: ManualClock;
  let sender: Sender;
  const http = createHttpClient();
  const headers = { 'Content-Type': 'application/json' };

  before(async () => {
    receiver = await startReceiver();
  });
  after(async () => {
    await sender.close();
    await http.close();
    await receiver.close();
  });

  it('ends each of many attempts in flight once, whether answered, timed out or stopped', async () => {
    clock = new ManualClock();
    sender = createSender({
      http,
      // A loopback bind allows loopback receivers (the server's own port excepted).
      guard: new AddressGuard({ listenHost: '127.0.0.1', listenPort: () => undefined, allowPrivate: false }),
      clock,
      timeoutMs: 1000,
      connections: 8,
    });
    // Attempts with an even n are answered at once; those with an odd n would wait 20 s.
    receiver.respond((req) =>
      Number(new URL(req.url, 'http://x').searchParams.get('n')) % 2 === 0
        ? 201
        : { status: 200, delayMs: 20_000 },
    );
    const first = Array.from({ length: 8 }, (_, n) =>
      outcome(sender.post('hook-a', `${receiver.url}?n=${n}`, headers, `{"n":${n}}`)),
    );
    await receiver.waitFor(8);
    // The answered half ends while the other half is in flight, out of the order they started in.
    const answered = (await Promise.race([Promise.all(first.filter((_, n) => n % 2 === 0)), pause(5000)])) as
      (AttemptResult | string)[] | undefined;
    assert.ok(answered, 'the attempts answered at once ended');
    for (const result of answered) assert.deepEqual(result, { status: 201, responseBody: 'ok' });

    // The sweep times out the four still waiting: each is rejected once, with the timeout.
    await clock.advance(1000);
    const waited = await Promise.all(first.filter((_, n) => n % 2 === 1));
    assert.deepEqual(waited, Array(4).fill('Request timed out after 1000 ms'));

    // Attempts started after those still run, and stopping the webhook ends the ones in flight.
    receiver.respond(() => ({ status: 200, delayMs: 20_000 }));
    const second = Array.from({ length: 3 }, (_, n) =>
      outcome(sender.post('hook-a', `${receiver.url}?m=${n}`, headers, '{}')),
    );
    await receiver.waitFor(11);
    sender.reset('hook-a');
    assert.deepEqual(await Promise.all(second), Array(3).fill('Delivery stopped'));
  });
});

function pause(ms: number): Promise<undefined> {
  return new Promise((resolve) => setTimeout(() => resolve(undefined), ms).unref());
}
