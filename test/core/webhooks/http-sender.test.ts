import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { createHttpSender, type Sender } from '../../../src/core/webhooks/http-sender.js';
import { ManualClock } from '../../helpers/manual-clock.js';
import { startReceiver, type Receiver } from '../../helpers/receiver.js';
import { pause } from './harness.js';

describe('http sender', () => {
  let receiver: Receiver;
  let clock: ManualClock;
  let sender: Sender;
  beforeEach(async () => {
    receiver = await startReceiver();
    clock = new ManualClock();
    sender = createHttpSender({ clock, timeoutMs: 5000 });
  });
  afterEach(async () => {
    sender.destroy();
    await receiver.close();
  });

  it('POSTs the body with the given headers and its length', async () => {
    const body = '{"a":"é"}';
    const res = await sender.send(receiver.url, { 'Content-Type': 'application/json', 'X-Test': '1' }, body);
    assert.deepEqual(res, { status: 200, text: '' });
    const [req] = receiver.requests;
    assert.equal(req?.method, 'POST');
    assert.equal(req?.headers['content-length'], String(Buffer.byteLength(body)));
    assert.equal(req?.headers['x-test'], '1');
    assert.equal(req?.raw.toString('utf8'), body);
  });

  it('returns the status and the start of the body of a failure', async () => {
    receiver.respond(() => 502);
    assert.deepEqual(await sender.send(receiver.url, {}, '{}'), { status: 502, text: 'ok' });
  });

  it('times out an attempt on the clock', async () => {
    receiver.respond(() => ({ status: 200, delayMs: 20_000 }));
    const sending = sender.send(receiver.url, {}, '{}');
    let settled = false;
    sending.then(
      () => (settled = true),
      () => (settled = true),
    );
    await receiver.waitFor(1);
    await clock.advance(4999);
    await pause(30);
    assert.equal(settled, false, 'not before the timeout');
    await clock.advance(501);
    await assert.rejects(sending, /Request timed out after 5000 ms/);
  });

  it('aborts requests in flight when destroyed', async () => {
    receiver.respond(() => ({ status: 200, delayMs: 20_000 }));
    const sending = sender.send(receiver.url, {}, '{}');
    await receiver.waitFor(1);
    sender.destroy();
    await assert.rejects(sending, /Webhook delivery stopped/);
  });
});
