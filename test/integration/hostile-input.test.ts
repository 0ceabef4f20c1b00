/**
 * Hostile input to every documented operation and every MCP tool (the built server, a temp vault
 * with a real webhook receiver): requests made from the OpenAPI document's and the tools' own
 * schemas, with values swapped for wrong types, impossible dates, path tricks, odd encodings,
 * prototype keys and oversized strings. Whatever the request, the server answers below 500 (an
 * error in the envelope, a JSON-RPC error or a tool error), keeps running and logs no error; a
 * request it refuses changes no file of the vault; no temp file is left behind.
 *
 * The requests come from a seeded generator: a failure names the seed and the request, and
 * HOSTILE_SEED=<seed> replays the run (HOSTILE_REQUESTS=<n> makes it longer).
 */
import assert from 'node:assert/strict';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { seededRandom } from '../helpers/seeded-random.js';
import { startTestServer, type TestServer } from '../helpers/server-process.js';

const SEED = Number(process.env.HOSTILE_SEED ?? 20261128);
const REQUESTS = Number(process.env.HOSTILE_REQUESTS ?? 1500);

const note = (frontmatter: string, body = ''): string => `---\n${frontmatter}\n---\n${body}`;
const CREATED = 'dateCreated: 2026-01-05T09:00:00.000Z\ndateModified: 2026-01-05T09:00:00.000Z';
const FILES: Record<string, string> = {
  'TaskNotes/Tasks/Plain.md': note(
    `title: Plain\nstatus: open\npriority: normal\n${CREATED}\ntags:\n  - task`,
    'Body.\n',
  ),
  'TaskNotes/Tasks/Recurring.md': note(
    `title: Recurring\nstatus: open\nscheduled: 2026-01-05\nrecurrence: FREQ=DAILY\n${CREATED}\ntags:\n  - task`,
  ),
  'TaskNotes/Tasks/Blocked.md': note(
    `title: Blocked\nstatus: open\ndue: 2026-02-01\n${CREATED}\nblockedBy:\n  - uid: "[[Plain]]"\n    reltype: FINISHTOSTART\ntags:\n  - task`,
  ),
  'TaskNotes/Tasks/Tracked.md': note(
    `title: Tracked\nstatus: in-progress\n${CREATED}\ntimeEntries:\n  - startTime: 2026-01-05T10:00:00.000Z\n    endTime: 2026-01-05T11:00:00.000Z\nreminders:\n  - id: r1\n    type: relative\n    relatedTo: due\n    offset: -PT15M\ntags:\n  - task`,
  ),
  'Notes/Plain note.md': '# Not a task\n',
};

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = Record<string, any>;

class Generator {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = seededRandom(seed);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)]!;
  }

  /** A value no schema asks for. */
  hostile(): Json {
    return this.pick<() => Json>([
      () => null,
      () => this.pick([true, false]),
      () => this.pick([0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, -0]),
      () => this.pick(['', ' ', '\u0000', '\ud800', '🎉', 'null', '[]', '{"a":1}', '💥'.repeat(3)]),
      () =>
        this.pick([
          '2026-02-30',
          '2026-13-01T25:00',
          '0000-00-00',
          '2026-01-05T09:00:00+99:00',
          '9999999-01-01',
        ]),
      () =>
        this.pick([
          'FREQ=DAILY;COUNT=-1',
          'RRULE:FREQ=WEEKLY;BYDAY=XX',
          'DTSTART:2026;FREQ=',
          'FREQ=SECONDLY',
        ]),
      () => this.pick(['P-1D', 'PT', '-PT99999999H', 'soon']),
      () => this.pick(['../../etc/passwd', '..', 'TaskNotes/../../x.md', '/etc/passwd', 'C:\\x', '%2e%2e/x']),
      () => this.pick(['[[Plain]]', '[[Nope]]', '[[', '[x](../../y.md)', '[[Plain|alias]]']),
      () => this.pick(['---\nstatus: x\n---', 'a: b\nc: [', '"quoted"', "'", '\r\n\r\n---']),
      () => 'x'.repeat(this.pick([300, 5_000, 100_000])),
      () => ({}),
      () => [],
      () => [null, 1, 'a', {}],
      () => Array.from({ length: 200 }, (_, i) => `tag${i}`),
      () => JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}') as Json,
      () => ({ $ref: '#/x', type: 'group', children: [{ type: 'group', children: [] }] }),
    ])();
  }

  /** A value of `schema`'s shape, resolved against the document's `components`. */
  value(schema: Schema | undefined, components: Schema, depth = 0): Json {
    if (!schema || depth > 6) return this.hostile();
    if (typeof schema.$ref === 'string') {
      const name = schema.$ref.split('/').pop() as string;
      return this.value(components[name] as Schema, components, depth + 1);
    }
    if ('const' in schema) return schema.const as Json;
    if (Array.isArray(schema.enum)) return this.pick(schema.enum as Json[]);
    const choices = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
    if (choices?.length) return this.value(this.pick(choices), components, depth + 1);
    if (Array.isArray(schema.allOf) && schema.allOf.length > 0) {
      return this.value(Object.assign({}, ...(schema.allOf as Schema[])), components, depth + 1);
    }
    const type = Array.isArray(schema.type)
      ? this.pick(schema.type as string[])
      : (schema.type as string | undefined);
    switch (type) {
      case 'string':
        if (schema.format === 'date') return this.pick(['2026-01-05', '2026-03-01', '2025-12-31']);
        if (schema.format === 'date-time')
          return this.pick(['2026-01-05T09:00:00.000Z', '2026-03-01T12:30:00+01:00']);
        if (schema.format === 'uri')
          return this.pick(['https://hooks.example.com/x', 'http://127.0.0.1:1/x']);
        return this.pick([
          'Plain',
          'open',
          'done',
          'high',
          'Buy milk tomorrow #errand',
          '2026-01-05',
          'task',
          '[[Plain]]',
        ]);
      case 'integer':
        return this.pick([0, 1, 5, 25, 60, 1000]);
      case 'number':
        return this.pick([0, 1, 2.5, 30]);
      case 'boolean':
        return this.chance(0.5);
      case 'null':
        return null;
      case 'array':
        return Array.from({ length: this.int(3) }, () =>
          this.value(schema.items as Schema, components, depth + 1),
        );
      case 'object':
      case undefined: {
        const properties = (schema.properties ?? {}) as Record<string, Schema>;
        const required = new Set((schema.required ?? []) as string[]);
        const out: Record<string, Json> = {};
        for (const [key, sub] of Object.entries(properties)) {
          if (required.has(key) || this.chance(0.4)) out[key] = this.value(sub, components, depth + 1);
        }
        if (type === undefined && Object.keys(properties).length === 0) return this.hostile();
        return out;
      }
      default:
        return this.hostile();
    }
  }

  /** `value` with one place made hostile: a leaf swapped, a key added, a required key dropped. */
  mutate(value: Json): Json {
    if (this.chance(0.15)) return value;
    if (value === null || typeof value !== 'object' || this.chance(0.1)) return this.hostile();
    if (Array.isArray(value)) {
      const copy = [...value];
      if (copy.length === 0 || this.chance(0.3)) copy.push(this.hostile());
      else copy[this.int(copy.length)] = this.mutate(copy[this.int(copy.length)]!);
      return copy;
    }
    const copy: Record<string, Json> = { ...value };
    const keys = Object.keys(copy);
    const roll = this.next();
    if (keys.length === 0 || roll < 0.2)
      copy[this.pick(['extra', 'title', 'status', 'id', 'path', 'due'])] = this.hostile();
    else if (roll < 0.35) delete copy[this.pick(keys)];
    else {
      const key = this.pick(keys);
      copy[key] = this.mutate(copy[key]!);
    }
    return copy;
  }
}

interface Operation {
  method: string;
  path: string;
  query: Array<{ name: string; schema?: Schema }>;
  body: Schema | undefined;
}

interface FileState {
  size: number;
  mtimeNs: bigint;
  ino: bigint;
  mode: number;
}

/**
 * Every file under `root` with what any write changes: a write in place changes the modification
 * time (nanoseconds) or the size, a replacement the inode, a chmod the mode.
 */
async function vaultState(root: string): Promise<Map<string, FileState>> {
  const out = new Map<string, FileState>();
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const abs = path.join(entry.parentPath, entry.name);
    const info = await stat(abs, { bigint: true });
    out.set(path.relative(root, abs), {
      size: Number(info.size),
      mtimeNs: info.mtimeNs,
      ino: info.ino,
      mode: Number(info.mode),
    });
  }
  return out;
}

describe('hostile input (built server)', () => {
  let server: TestServer;
  let receiver: Receiver;
  let operations: Operation[];
  let components: Schema;
  let tools: Array<{ name: string; inputSchema: Schema }>;

  before(async () => {
    receiver = await startReceiver();
    server = await startTestServer({ files: FILES, args: ['--webhook-allow-private'] });
    const hook = await server.request('POST', '/api/webhooks', {
      url: receiver.url,
      events: ['task.created', 'task.updated', 'task.deleted'],
    });
    assert.equal(hook.status, 201, hook.text);
    const doc = (await server.request('GET', '/api/docs')).body as Schema;
    components = (doc.components?.schemas ?? {}) as Schema;
    operations = [];
    for (const [pathname, item] of Object.entries(doc.paths as Record<string, Record<string, Schema>>)) {
      for (const [method, op] of Object.entries(item)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        // Streams: an open event stream or MCP's GET never ends by itself (the event stream's
        // own tests cover its parameters).
        if (method === 'get' && (pathname === '/api/events' || pathname === '/mcp')) continue;
        const parameters = (op.parameters ?? []) as Array<{ in: string; name: string; schema?: Schema }>;
        operations.push({
          method: method.toUpperCase(),
          path: pathname,
          query: parameters.filter((p) => p.in === 'query'),
          body: op.requestBody?.content?.['application/json']?.schema as Schema | undefined,
        });
      }
    }
    const listed = await server.request(
      'POST',
      '/mcp',
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      {
        accept: 'application/json, text/event-stream',
      },
    );
    tools = (listed.body as { result: { tools: Array<{ name: string; inputSchema: Schema }> } }).result.tools;
  });

  after(async () => {
    await server?.cleanup();
    await receiver?.close();
  });

  it('answers every request below 500, in its envelope, and changes nothing when it refuses', async (t) => {
    assert.ok(operations.length >= 45, `operations in the OpenAPI document: ${operations.length}`);
    assert.ok(tools.length >= 20, `MCP tools: ${tools.length}`);
    const gen = new Generator(SEED);
    const ids = { task: [] as string[], webhook: [] as string[], delivery: [] as string[] };
    const refreshIds = async (): Promise<void> => {
      const listed = await server.request('GET', '/api/tasks?limit=200');
      ids.task = (listed.body as { data: { tasks: Array<{ id: string }> } }).data.tasks.map((t) => t.id);
      const hooks = await server.request('GET', '/api/webhooks');
      ids.webhook = (hooks.body as { data: { webhooks: Array<{ id: string }> } }).data.webhooks.map(
        (h) => h.id,
      );
      const log = await server.request('GET', '/api/webhooks/deliveries?limit=20');
      ids.delivery = (log.body as { data: { deliveries: Array<{ id: string }> } }).data.deliveries.map(
        (d) => d.id,
      );
    };
    const idFor = (pathname: string): string => {
      const known = pathname.includes('/deliveries/')
        ? ids.delivery
        : pathname.startsWith('/api/webhooks')
          ? ids.webhook
          : ids.task;
      if (known.length > 0 && gen.chance(0.7)) return gen.pick(known);
      const odd = gen.hostile();
      return typeof odd === 'string' ? odd : JSON.stringify(odd);
    };
    const counts = { refused: 0, answered: 0, mcp: 0 };

    for (let i = 0; i < REQUESTS; i++) {
      if (i % 100 === 0) await refreshIds();
      let method: string;
      let target: string;
      let body: string | undefined;
      const headers: Record<string, string> = {};
      const mcp = gen.chance(0.2);
      if (mcp) {
        const tool = gen.pick(tools);
        const call = gen.chance(0.9)
          ? { name: tool.name, arguments: gen.mutate(gen.value(tool.inputSchema, {})) }
          : gen.mutate({ name: tool.name, arguments: {} });
        method = 'POST';
        target = '/mcp';
        body = JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: call });
        headers.accept = 'application/json, text/event-stream';
        headers['content-type'] = 'application/json';
      } else {
        const op = gen.pick(operations);
        method = op.method;
        target = op.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(idFor(op.path).toWellFormed()));
        const query = op.query
          .filter(() => gen.chance(0.3))
          .map((p) => {
            const raw = gen.chance(0.5) ? gen.value(p.schema, components) : gen.hostile();
            return `${encodeURIComponent(p.name)}=${encodeURIComponent(String(typeof raw === 'object' ? JSON.stringify(raw) : raw).toWellFormed())}`;
          });
        if (query.length > 0) target += `?${query.join('&')}`;
        if (op.body || (method !== 'GET' && gen.chance(0.2))) {
          body = gen.chance(0.05)
            ? gen.pick(['', 'not json', '{"a":', '[]', 'null', '{"title":"x","title":"y"}'])
            : JSON.stringify(gen.mutate(gen.value(op.body, components)));
          headers['content-type'] = gen.chance(0.9)
            ? 'application/json'
            : gen.pick(['text/plain', 'application/x-www-form-urlencoded']);
        }
      }
      const writes = method !== 'GET';
      const before = writes ? await vaultState(server.vault) : undefined;
      const label = `seed ${SEED}, request ${i}: ${method} ${target.slice(0, 200)} ${body?.slice(0, 300) ?? ''}`;
      const res = await fetch(server.url + target, {
        method,
        headers,
        ...(body === undefined ? {} : { body }),
      });
      const text = await res.text();
      assert.ok(res.status < 500, `${label}\n→ ${res.status} ${text.slice(0, 500)}`);
      let refused = res.status >= 400;
      if (res.headers.get('content-type')?.includes('json')) {
        const answer = JSON.parse(text) as Record<string, any>;
        if (target.startsWith('/mcp')) {
          assert.ok('result' in answer || 'error' in answer, `${label}\n→ ${text.slice(0, 500)}`);
          refused ||= 'error' in answer || answer.result?.isError === true;
          if (mcp) counts.mcp++;
        } else if (res.status >= 400) {
          assert.equal(answer.success, false, `${label}\n→ ${text.slice(0, 500)}`);
          assert.equal(typeof answer.error, 'string', `${label}\n→ ${text.slice(0, 500)}`);
        }
      }
      if (refused) counts.refused++;
      else counts.answered++;
      if (before && refused) {
        assert.deepEqual(
          await vaultState(server.vault),
          before,
          `${label}\n→ ${res.status}: the vault changed`,
        );
      }
      // A pomodoro session may be as short as a second, and its end writes the task's time entry
      // in the background, where it would look like a refused request's write: a session the
      // request may have started or resumed is stopped at once.
      if (!refused && `${target} ${body ?? ''}`.includes('pomodoro')) {
        await server.request('POST', '/api/pomodoro/stop');
      }
    }

    t.diagnostic(`seed ${SEED}: ${JSON.stringify(counts)}`);
    // Both kinds were met, or the generator tests nothing.
    assert.ok(counts.refused > REQUESTS / 5 && counts.answered > REQUESTS / 10, JSON.stringify(counts));
    assert.ok(counts.mcp > REQUESTS / 10, JSON.stringify(counts));
    assert.equal((await server.request('GET', '/api/health')).status, 200);
    const leftovers = [...(await vaultState(server.vault)).keys()].filter(
      (rel) => !rel.endsWith('.md') && !rel.endsWith('.base'),
    );
    assert.deepEqual(leftovers, [], 'no temp file left in the vault');
    const errors = server
      .stderr()
      .split('\n')
      .filter((line) => /"level":(50|60)/.test(line));
    assert.deepEqual(errors, [], 'no error logged');
    assert.equal(server.process.exitCode, null);
  });
});
