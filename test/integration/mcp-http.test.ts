/**
 * `POST /mcp` against the real server with the official SDK client (Streamable HTTP transport):
 * the plugin's tools and Taskdown's, answered by the same services as the routes; the token,
 * origin and API-switch rules of `/api`; 405 on GET and DELETE.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { agentScenario, toolJson } from '../helpers/mcp.js';
import { startTestServer, type TestServer } from '../helpers/server-process.js';

const TOKEN = 'mcp-test-token';

describe('MCP over Streamable HTTP', () => {
  let server: TestServer;
  const clients: Client[] = [];

  async function connect(
    headers: Record<string, string> = { Authorization: `Bearer ${TOKEN}` },
  ): Promise<Client> {
    const client = new Client({ name: 'taskdown-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers } }),
    );
    clients.push(client);
    return client;
  }

  before(async () => {
    server = await startTestServer({
      token: TOKEN,
      files: {
        'Tasks/Daily.md':
          '---\nstatus: open\nscheduled: 2026-01-15\nrecurrence: DTSTART:20260115;FREQ=DAILY\ntags: [task]\n---\n',
      },
    });
  });
  after(async () => {
    for (const client of clients) await client.close();
    await server.cleanup();
  });

  it('an agent lists the tools, creates, queries, updates with an etag and gets tool errors', async () => {
    const client = await connect();
    assert.equal(client.getServerVersion()?.name, 'taskdown');
    await agentScenario(client, (p) => readFile(path.join(server.vault, p), 'utf8'));
  });

  it('tools answer from the services the routes use', async () => {
    const client = await connect();
    const api = await server.request('GET', '/api/stats', undefined, { Authorization: `Bearer ${TOKEN}` });
    assert.deepEqual(
      toolJson(await client.callTool({ name: 'tasknotes_get_stats', arguments: {} })),
      api.body.data,
    );
    const listed = toolJson(await client.callTool({ name: 'tasknotes_list_tasks', arguments: { limit: 1 } }));
    assert.equal(listed.returned, 1);
    assert.equal(listed.total, api.body.data.total);
    const skipped = toolJson(
      await client.callTool({
        name: 'tasknotes_skip_instance',
        arguments: { id: 'Tasks/Daily.md', date: '2026-01-15' },
      }),
    );
    assert.deepEqual(skipped.skipped_instances, ['2026-01-15']);
    const bad = toolJson(
      await client.callTool({
        name: 'tasknotes_skip_instance',
        arguments: { id: 'Tasks/Daily.md', date: 'soon' },
      }),
      true,
    );
    const viaApi = await server.request(
      'POST',
      `/api/tasks/${encodeURIComponent('Tasks/Daily.md')}/skip-instance`,
      { date: 'soon' },
      { Authorization: `Bearer ${TOKEN}` },
    );
    assert.deepEqual(bad, { error: viaApi.body.error });
    const parsed = toolJson(
      await client.callTool({ name: 'tasknotes_parse_text', arguments: { text: 'Call Bob tomorrow #work' } }),
    );
    assert.equal(parsed.parsed.title, 'Call Bob');
    const hooks = toolJson(
      await client.callTool({
        name: 'tasknotes_create_webhook',
        arguments: { url: 'ftp://example.invalid/x', events: ['task.created'] },
      }),
      true,
    );
    const hooksApi = await server.request(
      'POST',
      '/api/webhooks',
      { url: 'ftp://example.invalid/x', events: ['task.created'] },
      { Authorization: `Bearer ${TOKEN}` },
    );
    assert.equal(hooks.error, hooksApi.body.error);
  });

  it('validates MCP writes as the API does: the same message as a tool error, nothing written', async () => {
    const client = await connect();
    const auth = { Authorization: `Bearer ${TOKEN}` };
    const before = (await server.request('GET', '/api/stats', undefined, auth)).body.data.total;
    const bad = toolJson(
      await client.callTool({
        name: 'tasknotes_create_task',
        arguments: { title: 'Bad date', due: '2026-13-45' },
      }),
      true,
    );
    const viaApi = await server.request('POST', '/api/tasks', { title: 'Bad date', due: '2026-13-45' }, auth);
    assert.equal(viaApi.status, 400);
    assert.equal(bad.error, viaApi.body.error);
    assert.match(bad.error, /^due: /);
    const updated = toolJson(
      await client.callTool({
        name: 'tasknotes_update_task',
        arguments: { id: 'Tasks/Daily.md', timeEstimate: -5 },
      }),
      true,
    );
    assert.match(updated.error, /^timeEstimate: /);
    assert.equal((await server.request('GET', '/api/stats', undefined, auth)).body.data.total, before);
    assert.doesNotMatch(await readFile(path.join(server.vault, 'Tasks/Daily.md'), 'utf8'), /timeEstimate/);
  });

  it('answers a query as the API does: the same message for a bad node, nodes without ids taken', async () => {
    const client = await connect();
    const auth = { Authorization: `Bearer ${TOKEN}` };
    const bad: Array<Record<string, unknown>> = [
      { type: 'condition', id: 'c', property: 'status', operator: 'equals', value: 'open' },
      { type: 'condition', id: 'c', property: 'status', operator: 'is', value: { a: 1 } },
      {
        type: 'group',
        id: 'g',
        conjunction: 'and',
        children: [{ type: 'condition', property: 'nope', operator: 'is', value: 1 }],
      },
    ];
    for (const node of bad) {
      const query = { type: 'group', id: 'root', conjunction: 'and', children: [node] };
      const viaApi = await server.request('POST', '/api/tasks/query', query, auth);
      assert.equal(viaApi.status, 400, JSON.stringify(node));
      const tool = toolJson(
        await client.callTool({
          name: 'tasknotes_query_tasks',
          arguments: { conjunction: 'and', children: [node] },
        }),
        true,
      );
      // The API names the root `root`, the tool `mcp-root`: the rest of the message is the same.
      assert.equal(tool.error.replace('mcp-root', 'root'), viaApi.body.error);
    }
    const noIds = toolJson(
      await client.callTool({
        name: 'tasknotes_query_tasks',
        arguments: {
          conjunction: 'and',
          children: [
            {
              type: 'group',
              conjunction: 'or',
              children: [{ type: 'condition', property: 'status', operator: 'is', value: 'open' }],
            },
          ],
        },
      }),
    );
    assert.ok(Object.values(noIds).flat().length > 0);
    // A page that is not the whole answer says so beside the plugin's JSON; a whole one does not.
    const page = await client.callTool({
      name: 'tasknotes_query_tasks',
      arguments: { conjunction: 'and', children: [], limit: 1, offset: 1 },
    });
    const blocks = (page.content as Array<{ text: string }>).map((c) => c.text);
    assert.equal(Object.values(JSON.parse(blocks[0]!) as object).flat().length, 1);
    const total = (
      await server.request(
        'POST',
        '/api/tasks/query',
        { type: 'group', id: 'r', conjunction: 'and', children: [] },
        auth,
      )
    ).body.data.filtered as number;
    assert.equal(
      blocks[1],
      `Tasks 2-2 of ${total} that match${total > 2 ? '; pass offset 2 for the next ones' : ''}.`,
    );
    const whole = await client.callTool({
      name: 'tasknotes_query_tasks',
      arguments: { conjunction: 'and', children: [] },
    });
    assert.equal((whole.content as unknown[]).length, 1);
    // A misspelt argument is refused, not dropped (the update would change nothing and succeed),
    // and so is an update that names nothing to change.
    const [first] = Object.values(noIds).flat() as Array<{ path: string }>;
    const misspelt = await client.callTool({
      name: 'tasknotes_update_task',
      arguments: { id: first!.path, dueDate: '2030-01-01' },
    });
    assert.equal(misspelt.isError, true);
    assert.match((misspelt.content as Array<{ text: string }>)[0]!.text, /Unrecognized key.*dueDate/s);
    const nothing = toolJson(
      await client.callTool({ name: 'tasknotes_update_task', arguments: { id: first!.path } }),
      true,
    );
    assert.match(nothing.error, /^Nothing to update: give at least one of title, status, priority, due,/);
    const negative = await client.callTool({ name: 'tasknotes_list_tasks', arguments: { limit: -5 } });
    assert.equal(negative.isError, true);
    assert.match((negative.content as Array<{ text: string }>)[0]!.text, /limit/);
  });

  it('needs the token, refuses foreign origins, and answers 405 on GET and DELETE (406 without Accept)', async () => {
    await assert.rejects(connect({}), /401|Authentication required/);
    await assert.rejects(
      connect({ Authorization: `Bearer ${TOKEN}`, Origin: 'http://evil.example.com' }),
      /403|CORS origin is not allowed/,
    );
    for (const method of ['GET', 'DELETE']) {
      const res = await server.request(method, '/mcp', undefined, { Authorization: `Bearer ${TOKEN}` });
      assert.equal(res.status, 405, method);
      assert.equal(res.headers.get('allow'), 'POST');
      assert.equal(res.body.jsonrpc, '2.0');
    }
    const noAccept = await server.request(
      'POST',
      '/mcp',
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { Authorization: `Bearer ${TOKEN}` },
    );
    assert.equal(noAccept.status, 406);
  });

  it('answers a body that is not JSON as JSON-RPC does (-32700, id null); /api keeps its envelope', async () => {
    const headers = {
      Authorization: `Bearer ${TOKEN}`,
      Accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
    };
    const bad = await server.request('POST', '/mcp', '{"jsonrpc": "2.0", "id": 1', headers);
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body, {
      jsonrpc: '2.0',
      error: { code: -32700, message: 'Parse error: Invalid JSON' },
      id: null,
    });
    const deep = await server.request('POST', '/mcp', `${'['.repeat(150)}${']'.repeat(150)}`, headers);
    assert.equal(deep.status, 400);
    assert.equal(deep.body.error.code, -32700);
    const big = await server.request('POST', '/mcp', JSON.stringify({ s: 'x'.repeat(1024 * 1024) }), headers);
    assert.equal(big.status, 413);
    assert.equal(big.body.error.code, -32600);
    const api = await server.request('POST', '/api/tasks', '{"title":', headers);
    assert.deepEqual([api.status, api.body], [400, { success: false, error: 'Invalid JSON' }]);
  });

  it('is off while the HTTP API is switched off', async () => {
    const auth = { Authorization: `Bearer ${TOKEN}` };
    assert.equal((await server.request('PUT', '/settings-api/api', { enabled: false }, auth)).status, 200);
    try {
      await assert.rejects(connect(), /503|HTTP API is disabled/);
    } finally {
      await server.request('PUT', '/settings-api/api', { enabled: true }, auth);
    }
    await connect();
  });
});
