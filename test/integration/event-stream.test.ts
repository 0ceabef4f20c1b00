/**
 * `GET /api/events` against the real server, read with eventsource-parser as a client would:
 * every event with its journal id, name and webhook envelope; disconnect and resume with
 * Last-Event-ID without missing or repeating an event; the `events` filter; 50 streams open while
 * the API keeps answering; the token; streams ended when the token is replaced or the API switched
 * off; and a shutdown that ends open streams at once.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { startTestServer, type TestServer } from '../helpers/server-process.js';

const TOKEN = 'sse-test-token';
const auth = { Authorization: `Bearer ${TOKEN}` };

/** An open event stream: the messages parsed so far, and a way to wait for more. */
interface Stream {
  status: number;
  messages: EventSourceMessage[];
  waitFor(count: number): Promise<void>;
  close(): void;
  ended: Promise<void>;
}

async function openStream(
  server: TestServer,
  query = '',
  headers: Record<string, string> = {},
): Promise<Stream> {
  const controller = new AbortController();
  const res = await fetch(`${server.url}/api/events${query}`, {
    headers: { ...auth, Accept: 'text/event-stream', ...headers },
    signal: controller.signal,
  });
  const messages: EventSourceMessage[] = [];
  let notify: (() => void) | undefined;
  const parser = createParser({
    onEvent: (m) => {
      messages.push(m);
      notify?.();
    },
  });
  const ended = (async () => {
    if (!res.body) return;
    const decoder = new TextDecoder();
    try {
      const reader = res.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(decoder.decode(value, { stream: true }));
      }
    } catch (err) {
      if ((err as Error).name !== 'AbortError') throw err;
    }
  })();
  return {
    status: res.status,
    messages,
    ended,
    close: () => controller.abort(),
    async waitFor(count) {
      const deadline = Date.now() + 10_000;
      while (messages.length < count) {
        if (Date.now() > deadline) throw new Error(`got ${messages.length} of ${count} events`);
        await new Promise<void>((resolve) => {
          notify = resolve;
          setTimeout(resolve, 100);
        });
      }
    },
  };
}

const ids = (s: Stream): number[] => s.messages.map((m) => Number(m.id));

describe('GET /api/events', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ token: TOKEN });
  });
  after(() => server.cleanup());

  const create = async (title: string): Promise<void> => {
    const res = await server.request('POST', '/api/tasks', { title }, auth);
    assert.equal(res.status, 201, res.text);
  };

  it('sends each event with its id, name and webhook envelope', async () => {
    const stream = await openStream(server);
    assert.equal(stream.status, 200);
    await create('Streamed');
    await server.request(
      'PUT',
      `/api/tasks/${encodeURIComponent('TaskNotes/Tasks/Streamed.md')}`,
      { priority: 'high' },
      auth,
    );
    await stream.waitFor(2);
    stream.close();
    const [created, updated] = stream.messages as [EventSourceMessage, EventSourceMessage];
    assert.equal(created.event, 'task.created');
    assert.equal(updated.event, 'task.updated');
    assert.equal(Number(updated.id), Number(created.id) + 1);
    const envelope = JSON.parse(updated.data);
    assert.deepEqual(Object.keys(envelope), ['event', 'timestamp', 'vault', 'data']);
    assert.equal(envelope.event, 'task.updated');
    assert.equal(envelope.data.task.priority, 'high');
    assert.equal(envelope.data.previous.priority, 'normal');
  });

  it('a client that disconnects and resumes with Last-Event-ID misses and repeats no event', async () => {
    // A second client stays connected throughout: the sequence the server sent.
    const witness = await openStream(server);
    const first = await openStream(server);
    // The client drops its connection in the middle of a burst, after 2 of its 5 events.
    const burst = Promise.all([1, 2, 3, 4, 5].map((i) => create(`Burst ${i}`)));
    await first.waitFor(2);
    first.close();
    await burst;
    await first.ended;
    const seen = ids(first);
    const lastSeen = seen[seen.length - 1] as number;

    // Events while the client is away, then a reconnect as EventSource does it.
    await create('Away 1');
    await create('Away 2');
    await create('Away 3');
    const resumed = await openStream(server, '', { 'Last-Event-ID': String(lastSeen) });
    await create('After');
    // A last event both must receive: a repeated event anywhere before it would show.
    await create('Sentinel');
    await witness.waitFor(10);
    const sentinel = ids(witness)[9] as number;
    while (!ids(resumed).includes(sentinel)) await resumed.waitFor(resumed.messages.length + 1);
    witness.close();
    resumed.close();

    const all = ids(witness);
    assert.equal(all.length, 10);
    assert.deepEqual(
      all,
      Array.from({ length: 10 }, (_, i) => (all[0] as number) + i),
      'ids increase by one',
    );
    assert.deepEqual([...seen, ...ids(resumed)], all, 'before and after the reconnect: each event once');
    assert.deepEqual(
      resumed.messages.slice(-5).map((m) => JSON.parse(m.data).data.task.title),
      ['Away 1', 'Away 2', 'Away 3', 'After', 'Sentinel'],
    );
  });

  it('keeps only the events asked for; an unknown name or a bad Last-Event-ID is a 400', async () => {
    const stream = await openStream(server, '?events=task.deleted,task.completed');
    await create('Filtered');
    const id = encodeURIComponent('TaskNotes/Tasks/Filtered.md');
    await server.request('POST', `/api/tasks/${id}/toggle-status`, undefined, auth);
    await server.request('DELETE', `/api/tasks/${id}`, undefined, auth);
    await stream.waitFor(2);
    stream.close();
    assert.deepEqual(
      stream.messages.map((m) => m.event),
      ['task.completed', 'task.deleted'],
    );
    const bad = await server.request('GET', '/api/events?events=task.created,task.exploded', undefined, auth);
    assert.equal(bad.status, 400);
    assert.match(bad.body.error, /^Invalid query parameter "events": unknown event "task.exploded"/);
    const badId = await server.request('GET', '/api/events', undefined, { ...auth, 'Last-Event-ID': 'abc' });
    assert.equal(badId.status, 400);
  });

  it('needs the token', async () => {
    const res = await fetch(`${server.url}/api/events`);
    assert.equal(res.status, 401);
  });

  it('50 open streams each get every event while the API keeps answering', async () => {
    const streams = await Promise.all(Array.from({ length: 50 }, () => openStream(server)));
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await server.request('POST', '/api/tasks', { title: `Crowd ${i}` }, auth);
      statuses.push(res.status);
      statuses.push((await server.request('GET', '/api/tasks?limit=5', undefined, auth)).status);
    }
    assert.deepEqual(new Set(statuses), new Set([200, 201]));
    await Promise.all(streams.map((s) => s.waitFor(20)));
    const expected = ids(streams[0] as Stream);
    for (const s of streams) {
      assert.deepEqual(ids(s), expected);
      s.close();
    }
    assert.equal(new Set(expected).size, 20);
  });
});

describe('GET /api/events on shutdown', () => {
  it('open streams end at once and the server exits 0', async () => {
    const server = await startTestServer({ token: TOKEN });
    try {
      const streams = await Promise.all([openStream(server), openStream(server)]);
      const started = Date.now();
      const code = await server.stop('SIGTERM');
      await Promise.all(streams.map((s) => s.ended));
      assert.equal(code, 0);
      // Without ending them, the open streams held the exit for the 10 s drain limit.
      assert.ok(Date.now() - started < 8_000, `took ${Date.now() - started} ms`);
    } finally {
      await server.cleanup();
    }
  });
});

/** Waits for a stream to end, failing after `ms`. */
async function endsWithin(stream: Stream, ms: number, what: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} stayed open`)), ms);
  });
  try {
    await Promise.race([stream.ended, late]);
  } finally {
    clearTimeout(timer);
    stream.close();
  }
}

describe('GET /api/events when the rules that let it in change', () => {
  it('ends open streams when the token is replaced, and when the API is switched off', async () => {
    // No token on the command line: the settings page's token is the one that counts.
    const server = await startTestServer();
    try {
      const rotate = async (token?: string) => {
        const res = await server.request(
          'POST',
          '/settings-api/api/token/rotate',
          undefined,
          token === undefined ? {} : { Authorization: `Bearer ${token}` },
        );
        assert.equal(res.status, 200);
        return res.body.data.token as string;
      };
      const first = await rotate();
      const before = await openStream(server, '', { Authorization: `Bearer ${first}` });
      assert.equal(before.status, 200);
      const second = await rotate(first);
      await endsWithin(before, 5_000, 'the stream opened with the replaced token');
      const refused = await fetch(`${server.url}/api/events`, {
        headers: { Authorization: `Bearer ${first}` },
      });
      assert.equal(refused.status, 401);

      const current = { Authorization: `Bearer ${second}` };
      const open = await openStream(server, '', current);
      const off = await server.request('PUT', '/settings-api/api', { enabled: false }, current);
      assert.equal(off.status, 200);
      await endsWithin(open, 5_000, 'the stream opened while the API was on');
      const disabled = await fetch(`${server.url}/api/events`, { headers: current });
      assert.equal(disabled.status, 503);
    } finally {
      await server.cleanup();
    }
  });
});
