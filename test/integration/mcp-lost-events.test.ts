/**
 * An MCP tool's change whose events could not be committed (the data dir's disk full) is a tool
 * error with the API's message, never a success, and `/mcp` still answers in JSON-RPC; read
 * tools are not checked. In process (src/app.ts), so the next commit can be
 * made to fail; the official SDK client over Streamable HTTP.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { systemClock } from '../../src/core/clock.js';
import { silentLogger } from '../../src/core/logger.js';
import { EVENTS_LOST } from '../../src/core/store/event-journal.js';
import { failNextCommit, startInProcessServer, type InProcessServer } from '../helpers/in-process-server.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { toolJson } from '../helpers/mcp.js';

describe('MCP tools whose events cannot be recorded', () => {
  let server: InProcessServer;
  let client: Client;

  before(async () => {
    server = await startInProcessServer({
      clock: systemClock,
      files: { 'A.md': '---\ntitle: A\ntags: [task]\n---\n' },
    });
    client = new Client({ name: 'taskdown-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  });
  after(async () => {
    await client.close();
    await server.cleanup();
  });

  it('answers a tool error for the change, and the next change goes through', async () => {
    // The disk fills before the call: the tool's write is made, its event's commit fails.
    failNextCommit(server);
    const created = await client.callTool({
      name: 'tasknotes_create_task',
      arguments: { title: 'Lost events' },
    });
    assert.deepEqual(toolJson(created, true), { error: EVENTS_LOST });
    const paths = server.running.services.tasks.paths();
    assert.ok(
      paths.some((p) => p.endsWith('/Lost events.md')),
      `the change itself was made: ${paths.join(', ')}`,
    );

    const kept = toolJson(
      await client.callTool({ name: 'tasknotes_create_task', arguments: { title: 'Kept' } }),
    );
    assert.equal(kept.title, 'Kept');
  });

  it('checks the tools that change something, not the reads', async () => {
    const checked: string[] = [];
    const { journal } = server.running.services;
    const mcp = createMcpServer({
      services: server.running.services,
      log: silentLogger,
      recording: (work) => {
        checked.push('recording');
        return journal.recording(work);
      },
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcp.connect(serverSide);
    const direct = new Client({ name: 'taskdown-test', version: '1.0.0' });
    await direct.connect(clientSide);
    try {
      toolJson(await direct.callTool({ name: 'tasknotes_list_tasks', arguments: {} }));
      toolJson(await direct.callTool({ name: 'tasknotes_health_check', arguments: {} }));
      assert.deepEqual(checked, []);
      toolJson(await direct.callTool({ name: 'tasknotes_create_task', arguments: { title: 'Checked' } }));
      assert.deepEqual(checked, ['recording']);
    } finally {
      await direct.close();
    }
  });
});
