/**
 * `taskdown mcp` on the data dir of a running `taskdown serve` (both the built executable): the
 * agent's messages go to the server's `/mcp` instead of a second Taskdown opening the vault. The
 * SDK's stdio client drives it; the server's HTTP API sees what the agent did; the forwarding
 * process holds no file of the vault or the data dir. Without the server's token it stops with one
 * line; the settings page's token is found in the data dir; with the server stopped, `taskdown
 * mcp` opens the vault itself. A data dir whose server serves another vault is refused.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readlinkSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { agentScenario, toolJson } from '../helpers/mcp.js';
import { builtCli, startTestServer, type TestServer } from '../helpers/server-process.js';
import { tempDir } from '../helpers/temp.js';

const TOKEN = 'forwarded-token-1';

/** Starts `taskdown mcp` for the server's vault and data dir with the SDK's stdio client. */
async function connectStdio(
  server: TestServer,
  extra: string[] = [],
): Promise<{ client: Client; transport: StdioClientTransport; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [builtCli(), 'mcp', '--vault', server.vault, '--data-dir', server.dataDir, ...extra],
    env: { ...process.env, TASKDOWN_LOG_LEVEL: 'info' } as Record<string, string>,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'taskdown-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, stderr: () => stderr };
}

/** Runs `taskdown mcp` until it exits by itself; its exit code and stderr. */
async function runToExit(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [builtCli(), 'mcp', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  child.stdout.resume();
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stderr };
}

/** The files a process holds open (Linux /proc), resolved. */
function openFiles(pid: number): string[] {
  const dir = `/proc/${pid}/fd`;
  return readdirSync(dir).flatMap((fd) => {
    try {
      return [readlinkSync(path.join(dir, fd))];
    } catch {
      return []; // closed meanwhile
    }
  });
}

describe('taskdown mcp next to a running server', () => {
  let server: TestServer;
  let tokenFile: { dir: string; cleanup(): Promise<void> };
  before(async () => {
    server = await startTestServer({ token: TOKEN });
    tokenFile = await tempDir('taskdown-token-');
    await writeFile(path.join(tokenFile.dir, 'token'), `${TOKEN}\n`, { mode: 0o600 });
  });
  after(async () => {
    await server.cleanup();
    await tokenFile.cleanup();
  });

  it('forwards the agent to the server instead of opening the vault a second time', async () => {
    const lock = await readFile(path.join(server.dataDir, 'taskdown.lock'), 'utf8');
    assert.equal(JSON.parse(lock).pid, server.process.pid);
    const { client, transport, stderr } = await connectStdio(server, [
      '--token-file',
      path.join(tokenFile.dir, 'token'),
    ]);
    try {
      await agentScenario(client, (p) => readFile(path.join(server.vault, p), 'utf8'));
      const created = toolJson(
        await client.callTool({
          name: 'tasknotes_create_task',
          arguments: { title: 'Forwarded', tags: ['fw'] },
        }),
      );
      const viaApi = await server.request(
        'GET',
        `/api/tasks/${encodeURIComponent(created.path)}`,
        undefined,
        {
          Authorization: `Bearer ${TOKEN}`,
        },
      );
      assert.equal(viaApi.status, 200);
      assert.equal(viaApi.body.data.title, 'Forwarded');
      assert.equal(viaApi.headers.get('etag'), created.etag, 'the server wrote it');

      const pid = transport.pid as number;
      const held = openFiles(pid).filter(
        (file) => file.startsWith(server.vault) || file.startsWith(server.dataDir),
      );
      assert.deepEqual(held, [], 'the forwarding process opened nothing of the vault or data dir');
      assert.equal(
        await readFile(path.join(server.dataDir, 'taskdown.lock'), 'utf8'),
        lock,
        'the lock stays the server’s',
      );
      assert.match(stderr(), /forwarding to the running server/);
      assert.doesNotMatch(stderr(), /MCP server on stdio/);
    } finally {
      await client.close();
    }
  });

  it('stops with one line when it lacks the server’s token, or has another', async () => {
    const common = ['--vault', server.vault, '--data-dir', server.dataDir];
    const missing = await runToExit(common);
    assert.equal(missing.code, 1);
    assert.match(
      missing.stderr,
      /^taskdown: the Taskdown server at http:\/\/\S+ \(process \d+\) needs a token; give it with --token-file FILE \(or --token, TASKDOWN_TOKEN\)\n$/,
    );
    const wrong = await runToExit([...common, '--token', 'not-the-token']);
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /^taskdown: the Taskdown server at \S+ \(process \d+\) refused the token; /);
    assert.equal(wrong.stderr.split('\n').filter(Boolean).length, 1);
  });

  it('answers every request piped in before stdin closed, then ends', async () => {
    const child = spawn(
      process.execPath,
      [builtCli(), 'mcp', '--vault', server.vault, '--data-dir', server.dataDir, '--token', TOKEN],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.resume();
    const lines = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'pipe', version: '1' },
        },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'tasknotes_create_task', arguments: { title: 'Piped in' } },
      },
    ];
    child.stdin.end(lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    assert.equal(code, 0);
    const answers = stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { id: number; result?: { content: Array<{ text: string }> } });
    assert.deepEqual(
      answers.map((a) => a.id),
      [1, 2],
    );
    const created = JSON.parse(answers[1]?.result?.content[0]?.text ?? '{}') as { title?: string };
    assert.equal(created.title, 'Piped in');
  });

  it('stops with one line when the running server does not answer', async () => {
    server.process.kill('SIGSTOP');
    try {
      const started = Date.now();
      const stuck = await runToExit([
        '--vault',
        server.vault,
        '--data-dir',
        server.dataDir,
        '--token',
        TOKEN,
      ]);
      assert.equal(stuck.code, 1);
      assert.match(
        stuck.stderr,
        /^taskdown: the Taskdown server at \S+ \(process \d+\) does not answer \(waited 10 s\): is it stopped\?\n$/,
      );
      assert.ok(Date.now() - started < 30_000);
    } finally {
      server.process.kill('SIGCONT');
    }
  });

  it('refuses, with one line, a data dir whose server serves another vault', async () => {
    const other = await tempDir('taskdown-other-vault-');
    try {
      const refused = await runToExit(['--vault', other.dir, '--data-dir', server.dataDir, '--token', TOKEN]);
      assert.equal(refused.code, 1);
      assert.match(
        refused.stderr,
        new RegExp(
          `^taskdown: the data dir \\S+ is in use by process ${server.process.pid} \\(taskdown serve, vault ${server.vault}, `,
        ),
      );
      assert.equal(refused.stderr.split('\n').filter(Boolean).length, 1);
    } finally {
      await other.cleanup();
    }
  });
});

describe('taskdown mcp and the settings page token', () => {
  it('uses the token set on the settings page; once the server stopped it ends, and the next one opens the vault', async () => {
    const server = await startTestServer();
    try {
      const set = await server.request('PUT', '/settings-api/api/token', { token: 'settings-token-2' });
      assert.equal(set.status, 200, set.text);
      const forwarded = await connectStdio(server);
      try {
        const task = toolJson(
          await forwarded.client.callTool({
            name: 'tasknotes_create_task',
            arguments: { title: 'Via settings token' },
          }),
        );
        const viaApi = await server.request('GET', `/api/tasks/${encodeURIComponent(task.path)}`, undefined, {
          Authorization: 'Bearer settings-token-2',
        });
        assert.equal(viaApi.status, 200);
        assert.match(forwarded.stderr(), /forwarding to the running server/);

        // The server stops: the next request is an error, and the process ends (exit 1).
        const closed = new Promise<void>((resolve) => (forwarded.client.onclose = resolve));
        assert.equal(await server.stop('SIGTERM'), 0);
        await assert.rejects(
          forwarded.client.callTool({ name: 'tasknotes_list_tasks', arguments: {} }),
          /the Taskdown server at \S+ \(process \d+\) is not reachable/,
        );
        await closed;
        assert.match(
          forwarded.stderr(),
          /^taskdown: the Taskdown server at \S+ \(process \d+\) is not reachable/m,
        );
      } finally {
        await forwarded.client.close();
      }

      const local = await connectStdio(server);
      try {
        const health = toolJson(
          await local.client.callTool({ name: 'tasknotes_health_check', arguments: {} }),
        );
        assert.equal(health.vaultPath, server.vault);
        const listed = toolJson(await local.client.callTool({ name: 'tasknotes_list_tasks', arguments: {} }));
        assert.deepEqual(
          listed.tasks.map((t: { title: string }) => t.title),
          ['Via settings token'],
        );
        assert.match(local.stderr(), /MCP server on stdio/);
        assert.ok(
          openFiles(local.transport.pid as number).some((file) => file.startsWith(server.dataDir)),
          'a process that opened the vault holds files of the data dir (the check above can fail)',
        );
        const lock = JSON.parse(await readFile(path.join(server.dataDir, 'taskdown.lock'), 'utf8'));
        assert.equal(lock.command, 'mcp');
        assert.equal(lock.pid, local.transport.pid);
      } finally {
        await local.client.close();
      }
    } finally {
      await server.cleanup();
    }
  });
});
