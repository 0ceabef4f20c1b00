/**
 * One client's event stream over a real event journal (SQLite in a temp dir), read through a
 * Writable the test controls: replay then follow without gaps or repeats, the name filter, the
 * heartbeat and the stall limit on a manual clock, and a client that does not read costing a
 * bounded amount of memory.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { EventSourceMessage } from 'eventsource-parser';
import { silentLogger } from '../../core/logger.js';
import { openStore, type Store } from '../../core/store/database.js';
import { EventJournal } from '../../core/store/event-journal.js';
import { ManualClock, settle } from '../../../test/helpers/manual-clock.js';
import { SseClient as Client } from '../../../test/helpers/sse-client.js';
import { tempDir } from '../../../test/helpers/temp.js';
import { JournalStream, HEARTBEAT_MS, STALL_MS } from './journal-stream.js';

const VAULT = { name: 'v', path: '/v' };

describe('JournalStream', () => {
  let store: Store;
  let journal: EventJournal;
  let clock: ManualClock;
  let cleanup: () => Promise<void>;
  const streams: JournalStream[] = [];

  beforeEach(async () => {
    const dir = await tempDir('taskdown-sse-');
    cleanup = dir.cleanup;
    store = openStore(dir.dir);
    journal = new EventJournal(store, VAULT, silentLogger);
    clock = new ManualClock();
  });
  afterEach(async () => {
    for (const s of streams.splice(0)) s.destroy();
    store.close();
    await cleanup();
  });

  const append = (n: number, name: 'task.created' | 'task.updated' = 'task.created'): void => {
    for (let i = 0; i < n; i++) journal.append(name, { task: { title: `t${i}` } }, clock.now());
  };
  function open(client: Client, after: number, names?: string[]): JournalStream {
    const stream = new JournalStream({ journal, after, names, clock, log: silentLogger });
    streams.push(stream);
    stream.pipe(client);
    return stream;
  }

  it('replays the entries after `after`, then follows new ones, in order and each once', async () => {
    append(5);
    const client = new Client();
    open(client, 2);
    await settle();
    append(3);
    await settle();
    assert.deepEqual(client.ids(), [3, 4, 5, 6, 7, 8]);
    const first = client.messages[0] as EventSourceMessage;
    assert.equal(first.event, 'task.created');
    assert.deepEqual(JSON.parse(first.data), {
      event: 'task.created',
      timestamp: new Date(clock.now()).toISOString(),
      vault: VAULT,
      data: { task: { title: 't2' } },
    });
  });

  it('sends only the named events, replayed or new', async () => {
    append(2, 'task.created');
    append(2, 'task.updated');
    const client = new Client();
    open(client, 0, ['task.updated']);
    await settle();
    append(1, 'task.created');
    append(1, 'task.updated');
    await settle();
    assert.deepEqual(client.ids(), [3, 4, 6]);
    assert.ok(client.messages.every((m) => m.event === 'task.updated'));
  });

  it('a comment every 15 s while idle keeps the connection open', async () => {
    const client = new Client();
    open(client, journal.latestSeq());
    await clock.advance(HEARTBEAT_MS - 1);
    assert.deepEqual(client.comments, []);
    await clock.advance(1);
    assert.deepEqual(client.comments, ['heartbeat']);
    await clock.advance(2 * HEARTBEAT_MS);
    assert.deepEqual(client.comments, ['heartbeat', 'heartbeat', 'heartbeat']);
  });

  it('a client that does not read holds a page at most, then resumes where it stopped', async () => {
    const client = new Client(false);
    const stream = open(client, 0);
    await settle();
    append(2_000);
    await settle();
    // Nothing is queued per event: what waits is the stream's and the client's buffers only.
    const buffered = stream.readableLength + client.writableLength;
    assert.ok(buffered < 128 * 1024, `buffered ${buffered} bytes`);
    client.resume();
    while (client.messages.length < 2_000) await settle();
    assert.deepEqual(
      client.ids(),
      Array.from({ length: 2_000 }, (_, i) => i + 1),
    );
  });

  it('disconnects a client that stops reading for a minute; a reading one stays', async () => {
    const stalled = new Client(false);
    const stalledStream = open(stalled, 0);
    const reading = new Client();
    const readingStream = open(reading, 0);
    await settle();
    append(500);
    await settle();
    await clock.advance(STALL_MS + HEARTBEAT_MS);
    assert.equal(stalledStream.destroyed, true);
    assert.equal(readingStream.destroyed, false);
    assert.equal(reading.messages.length, 500);
  });

  it('says when entries before the oldest kept one were pruned, and replays from it', async () => {
    append(10);
    journal.prune({ maxAgeMs: 0, maxRecords: 4 }, clock.now() + 1);
    const oldest = journal.completeFrom() as number;
    const client = new Client();
    open(client, 2);
    await settle();
    assert.match(client.comments[0] ?? '', new RegExp(`events 3 to ${oldest - 1} are no longer kept`));
    assert.equal(client.ids()[0], oldest);
  });

  it('replays no entry kept only for a delivery below the pruned ones, and says what is gone', async () => {
    const first = journal.latestSeq() + 1;
    append(10);
    // The last four are kept by count, and entry `first + 1` for a delivery; the rest go.
    journal.prune({ maxAgeMs: 1e12, maxRecords: 4 }, clock.now(), [first + 1]);
    const from = journal.completeFrom() as number;
    assert.equal(from, first + 6);
    const client = new Client();
    open(client, first);
    await settle();
    assert.match(
      client.comments[0] ?? '',
      new RegExp(`events ${first + 1} to ${from - 1} are no longer kept`),
    );
    assert.deepEqual(client.ids(), [from, from + 1, from + 2, from + 3]);
  });

  it('finish() ends the stream and stops following', async () => {
    const client = new Client();
    const stream = open(client, 0);
    await settle();
    const ended = new Promise((resolve) => client.once('finish', resolve));
    stream.finish();
    await ended;
    append(1);
    await settle();
    assert.deepEqual(client.ids(), []);
    assert.equal(clock.pending(), 0, 'the heartbeat timer is gone');
  });
});
