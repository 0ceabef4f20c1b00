/**
 * The settings page's delivery activity stream on a manual clock: notices of a burst merged into
 * one message, a client that does not read getting what changed meanwhile in one message, the
 * heartbeat, and finish() unsubscribing.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { silentLogger } from '../../core/logger.js';
import { DeliveryActivity } from '../../core/webhooks/activity.js';
import { SseClient } from '../../../test/helpers/sse-client.js';
import { ManualClock, settle } from '../../../test/helpers/manual-clock.js';
import { ActivityStream, MERGE_MS } from './activity-stream.js';
import { HEARTBEAT_MS } from './sse-stream.js';

describe('ActivityStream', () => {
  const streams: ActivityStream[] = [];
  afterEach(() => {
    for (const s of streams.splice(0)) s.destroy();
  });

  function open(client: SseClient) {
    const activity = new DeliveryActivity();
    const clock = new ManualClock();
    const stream = new ActivityStream({
      subscribe: (listener) => activity.subscribe(listener),
      clock,
      log: silentLogger,
    });
    streams.push(stream);
    stream.pipe(client);
    const changed = () => client.messages.map((m) => JSON.parse(m.data).webhookIds as string[]);
    return { activity, clock, stream, changed };
  }

  it('merges the notices of a burst into one message naming each webhook once', async () => {
    const client = new SseClient();
    const { activity, clock, changed } = open(client);
    await settle();
    for (let i = 0; i < 1000; i++) activity.notify([i % 2 ? 'a' : 'b']);
    await settle();
    assert.deepEqual(changed(), []);
    await clock.advance(MERGE_MS);
    await settle();
    assert.deepEqual(changed(), [['b', 'a']]);
    assert.equal(client.messages[0]?.event, 'deliveries');
    activity.notify(['c']);
    await clock.advance(MERGE_MS);
    await settle();
    assert.deepEqual(changed(), [['b', 'a'], ['c']]);
  });

  it('keeps what changed while the client was not reading and sends it in one message', async () => {
    const client = new SseClient(false);
    const { activity, clock, changed } = open(client);
    await settle();
    // Long ids fill the stream's 64 KB buffer: later notices wait, collected, for the client.
    const pad = 'x'.repeat(300);
    for (let i = 0; i < 400; i++) {
      activity.notify([`hook-${i}-${pad}`]);
      await clock.advance(MERGE_MS);
    }
    activity.notify(['late']);
    await clock.advance(MERGE_MS);
    client.resume();
    for (let i = 0; i < 20; i++) await settle();
    const all = changed().flat();
    assert.equal(new Set(all).size, 401);
    assert.equal(all.length, 401, 'no webhook named twice');
    assert.equal(all.at(-1), 'late');
    assert.ok(client.messages.length < 300, `${client.messages.length} messages: nothing was merged`);
  });

  it('sends a heartbeat comment while idle, and finish() ends it and unsubscribes', async () => {
    const client = new SseClient();
    const { activity, clock, stream, changed } = open(client);
    await settle();
    await clock.advance(HEARTBEAT_MS);
    await settle();
    assert.deepEqual(client.comments, ['heartbeat']);
    const ended = new Promise((resolve) => client.once('finish', resolve));
    stream.finish();
    await ended;
    activity.notify(['a']);
    await clock.advance(MERGE_MS);
    assert.deepEqual(changed(), []);
  });
});
