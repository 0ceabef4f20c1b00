/**
 * Eight clients changing the same few tasks at once (the built server, a real webhook receiver):
 * renames onto each other's titles, status and tag edits, long bodies, archive, delete and
 * create, time tracking, recurring instances, and MCP updates through the official SDK client.
 * Afterwards what the server serves is what a fresh server reads from the same vault, each task
 * is one note, no temp file is left, nothing is logged as an error, and every acknowledged
 * creation and deletion arrived at the receiver as its event, once.
 *
 * The operations come from a seeded generator; CONCURRENT_SEED=<seed> replays a run.
 */
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { subscribedReceiver, type Receiver } from '../helpers/receiver.js';
import { encodeId, startTestServer, waitFor, type TestServer } from '../helpers/server-process.js';
import { seededRandom } from '../helpers/seeded-random.js';
import { tempDir } from '../helpers/temp.js';

const SEED = Number(process.env.CONCURRENT_SEED ?? 7);
const CLIENTS = 8;
const OPERATIONS = 60;
const TITLES = ['Alpha', 'Beta', 'Gamma', 'Delta', 'Alpha 2'];

interface Task {
  id: string;
  path: string;
  [field: string]: unknown;
}

/** The tasks as served, in path order. */
async function served(url: string): Promise<string> {
  const res = await fetch(`${url}/api/tasks?limit=1000`);
  const { data } = (await res.json()) as { data: { tasks: Task[] } };
  return JSON.stringify(data.tasks.sort((a, b) => a.path.localeCompare(b.path)));
}

describe('eight clients writing the same tasks at once (built server)', () => {
  let server: TestServer;
  let receiver: Receiver;
  let mcp: Client;

  before(async () => {
    server = await startTestServer();
    receiver = await subscribedReceiver(server, ['task.created', 'task.deleted']);
    for (const [i, title] of TITLES.slice(0, 4).entries()) {
      const created = await server.request('POST', '/api/tasks', {
        title,
        scheduled: '2026-11-20',
        ...(i === 2 ? { recurrence: 'FREQ=DAILY' } : {}),
      });
      assert.equal(created.status, 201, created.text);
    }
    mcp = new Client({ name: 'concurrent-writes-test', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  });

  after(async () => {
    await mcp?.close();
    await server?.cleanup();
    await receiver?.close();
  });

  it('serves what a fresh read of the vault finds, and sends every creation and deletion once', async () => {
    const next = seededRandom(SEED);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
    const acknowledged = { created: TITLES.slice(0, 4).length, deleted: 0 };
    const seen = new Map<string, number>();

    const client = async (): Promise<void> => {
      for (let i = 0; i < OPERATIONS; i++) {
        const listed = await server.request('GET', '/api/tasks?limit=1000');
        const tasks = (listed.body as { data: { tasks: Task[] } }).data.tasks;
        const id = pick(tasks).id;
        const at = `/api/tasks/${encodeId(id)}`;
        const op = pick([
          'rename',
          'status',
          'tags',
          'body',
          'toggle',
          'archive',
          'start',
          'stop',
          'instance',
          'delete',
          'create',
          'mcp',
        ] as const);
        let status: number;
        switch (op) {
          case 'rename':
            status = (await server.request('PUT', at, { title: pick(TITLES) })).status;
            break;
          case 'status':
            status = (await server.request('PUT', at, { status: pick(['open', 'in-progress', 'done']) }))
              .status;
            break;
          case 'tags':
            status = (await server.request('PUT', at, { tags: ['task', `t${i}`] })).status;
            break;
          case 'body':
            status = (
              await server.request('PUT', at, { details: `line ${i}\n`.repeat(1 + Math.floor(next() * 500)) })
            ).status;
            break;
          case 'toggle':
            status = (await server.request('POST', `${at}/toggle-status`)).status;
            break;
          case 'archive':
            status = (await server.request('POST', `${at}/archive`)).status;
            break;
          case 'start':
            status = (await server.request('POST', `${at}/time/start`)).status;
            break;
          case 'stop':
            status = (await server.request('POST', `${at}/time/stop`)).status;
            break;
          case 'instance':
            status = (
              await server.request('POST', `${at}/complete-instance`, {
                date: pick(['2026-11-20', '2026-11-21']),
              })
            ).status;
            break;
          case 'delete':
            // Keeps a few tasks to work on.
            if (tasks.length <= 3) continue;
            status = (await server.request('DELETE', at)).status;
            if (status === 200) acknowledged.deleted++;
            break;
          case 'create':
            status = (await server.request('POST', '/api/tasks', { title: pick(TITLES) })).status;
            if (status === 201) acknowledged.created++;
            break;
          case 'mcp': {
            const result = await mcp.callTool({
              name: 'tasknotes_update_task',
              arguments: { id, priority: pick(['high', 'low']), title: pick(TITLES) },
            });
            status = result.isError === true ? 400 : 200;
            break;
          }
        }
        assert.ok(status < 500, `seed ${SEED}: ${op} ${id} → ${status}`);
        seen.set(`${op} ${status}`, (seen.get(`${op} ${status}`) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, client));

    // The clients met each other: some of every kind of write went through.
    for (const op of ['rename', 'archive', 'delete', 'create', 'mcp']) {
      assert.ok(
        [...seen].some(([key, n]) => key.startsWith(`${op} 2`) && n > 0),
        `${op} never succeeded: ${JSON.stringify([...seen])}`,
      );
    }

    const events = (name: string): number => receiver.requests.filter((r) => r.body?.event === name).length;
    await waitFor(
      () => events('task.created') >= acknowledged.created && events('task.deleted') >= acknowledged.deleted,
    );
    const state = await served(server.url);
    await server.stop();
    assert.equal(events('task.created'), acknowledged.created, 'one task.created per acknowledged creation');
    assert.equal(events('task.deleted'), acknowledged.deleted, 'one task.deleted per acknowledged deletion');

    const files = await readdir(server.vault, { recursive: true, withFileTypes: true });
    const notes = files.filter((f) => f.isFile() && !f.parentPath.includes('.trash'));
    assert.deepEqual(
      notes.filter((f) => !f.name.endsWith('.md')).map((f) => f.name),
      [],
      'no temp file left in the vault',
    );
    assert.deepEqual(
      server
        .stderr()
        .split('\n')
        .filter((line) => /"level":(50|60)/.test(line)),
      [],
      'no error logged',
    );

    // A second server with a data dir of its own reads every note from the vault.
    const fresh = await tempDir('taskdown-fresh-data-');
    const second = await startTestServer({ vault: server.vault, dataDir: fresh.dir });
    try {
      assert.equal(await served(second.url), state);
      const tasks = JSON.parse(state) as Task[];
      assert.equal(
        tasks.length,
        notes.filter((f) => f.parentPath.includes('TaskNotes')).length,
        'one note per task',
      );
    } finally {
      await second.cleanup();
      await fresh.cleanup();
    }
  });
});
