/**
 * `taskdown mcp` (the built executable) driven by the official SDK client over stdio, as a desktop
 * agent starts it: the same tools as `/mcp`, nothing but JSON-RPC on stdout (with info logs on),
 * and a clean exit when the agent closes stdin.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { NOT_UNICODE } from '../../src/core/well-formed.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { agentScenario, toolJson } from '../helpers/mcp.js';
import { builtCli } from '../helpers/server-process.js';
import { tempDir } from '../helpers/temp.js';

describe('taskdown mcp over stdio', () => {
  let vault: { dir: string; cleanup(): Promise<void> };
  let data: { dir: string; cleanup(): Promise<void> };
  before(async () => {
    vault = await tempDir('taskdown-mcp-vault-');
    data = await tempDir('taskdown-mcp-data-');
  });
  after(async () => {
    await vault.cleanup();
    await data.cleanup();
  });

  const args = (): string[] => [builtCli(), 'mcp', '--vault', vault.dir, '--data-dir', data.dir];

  it('an agent lists the tools, creates, queries, updates with an etag and gets tool errors', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: args(),
      env: { ...process.env, TASKDOWN_LOG_LEVEL: 'info' } as Record<string, string>,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'taskdown-test', version: '1.0.0' });
    const errors: Error[] = [];
    client.onerror = (err) => errors.push(err);
    await client.connect(transport);
    try {
      assert.equal(client.getServerVersion()?.name, 'taskdown');
      await agentScenario(client, (p) => readFile(path.join(vault.dir, p), 'utf8'));
      const health = toolJson(await client.callTool({ name: 'tasknotes_health_check', arguments: {} }));
      assert.equal(health.vaultPath, vault.dir);
      // Text that is not Unicode (an unpaired surrogate) is refused before a file is named by it.
      const surrogate = await client.callTool({
        name: 'tasknotes_create_task',
        arguments: { title: '\ud801 phantom' },
      });
      assert.deepEqual(toolJson(surrogate, true), { error: NOT_UNICODE });
    } finally {
      await client.close();
    }
    assert.deepEqual(errors, [], 'every line on stdout was a JSON-RPC message');
    assert.match(stderr, /MCP server on stdio/, 'logs go to stderr');
  });

  it('writes only JSON-RPC to stdout and exits 0 when stdin closes', async () => {
    const child = spawn(process.execPath, args(), {
      env: { ...process.env, TASKDOWN_LOG_LEVEL: 'debug' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.resume();
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const send = (msg: unknown): void => {
      child.stdin.write(`${JSON.stringify(msg)}\n`);
    };
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    while (stdout.split('\n').filter(Boolean).length < 2) await new Promise((r) => setTimeout(r, 20));
    child.stdin.end();
    assert.equal(await exited, 0);
    const lines = stdout.split('\n').filter(Boolean);
    assert.equal(lines.length, 2, stdout);
    for (const line of lines) assert.equal(JSON.parse(line).jsonrpc, '2.0');
    assert.ok(JSON.parse(lines[1] as string).result.tools.length > 25);
  });

  it('refuses serve-only options with a usage error', async () => {
    const child = spawn(process.execPath, [...args(), '--port', '9'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    assert.equal(code, 2);
    assert.equal(stderr, 'taskdown: --port is an option of "taskdown serve", not of "taskdown mcp"\n');
  });
});
