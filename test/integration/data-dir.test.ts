/**
 * The data dir against the built executable (docs/vault-safety.md): one Taskdown per data dir,
 * a stale lock taken over after kill -9, and the default location outside the vault.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  builtCli,
  isolatedHome,
  runCli,
  startTestServer,
  type TestServer,
} from '../helpers/server-process.js';
import { tempDir } from '../helpers/temp.js';

const NOTE = '---\ntitle: A\nstatus: open\ntags:\n  - task\n---\n';

describe('one Taskdown per data dir', () => {
  let first: TestServer;
  before(async () => {
    first = await startTestServer({ files: { 'A.md': NOTE } });
  });
  after(() => first.cleanup());

  it('a second serve on the same data dir exits 1 with one line naming the running one', async () => {
    const pid = first.process.pid as number;
    const res = await runCli(['serve', '--vault', first.vault, '--data-dir', first.dataDir, '--port', '0']);
    assert.equal(res.code, 1);
    assert.equal(res.stdout, '');
    const lines = res.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 1, res.stderr);
    assert.match(
      lines[0] as string,
      new RegExp(
        `^taskdown: the data dir ${first.dataDir} is in use by process ${pid} \\(taskdown serve, vault ${first.vault}, started [^,]+, ${first.url}\\); stop it first, or give this one another --data-dir$`,
      ),
    );
    assert.equal((await first.request('GET', '/api/health')).status, 200, 'the first one still serves');
  });

  it('so does a second taskdown mcp (next to a serve, mcp forwards to it: mcp-forward.test.ts)', async () => {
    const data = await tempDir('taskdown-mcp-lock-');
    const env = { ...process.env, ...isolatedHome(), TASKDOWN_LOG_LEVEL: 'info' };
    const args = [builtCli(), 'mcp', '--vault', first.vault, '--data-dir', data.dir];
    const holder = spawn(process.execPath, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    try {
      let holderLog = '';
      holder.stderr.setEncoding('utf8').on('data', (c: string) => (holderLog += c));
      holder.stdout.resume();
      while (!holderLog.includes('MCP server on stdio')) {
        assert.equal(holder.exitCode, null, holderLog);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      const child = spawn(process.execPath, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      assert.equal(code, 1);
      assert.match(
        stderr,
        new RegExp(`^taskdown: the data dir .* is in use by process ${holder.pid} \\(taskdown mcp, `),
      );
    } finally {
      const exited = new Promise((resolve) => holder.once('exit', resolve));
      holder.stdin.end();
      await exited;
      await data.cleanup();
    }
  });

  it('after kill -9 the next start takes the lock over', async () => {
    assert.equal(await first.stop('SIGKILL'), null);
    assert.ok(existsSync(path.join(first.dataDir, 'taskdown.lock')), 'kill -9 leaves the lock');
    const next = await startTestServer({ vault: first.vault, dataDir: first.dataDir });
    try {
      const lock = JSON.parse(readFileSync(path.join(first.dataDir, 'taskdown.lock'), 'utf8'));
      assert.equal(lock.pid, next.process.pid);
      assert.equal(lock.url, next.url);
      assert.equal((await next.request('GET', '/api/tasks')).body.data.tasks.length, 1);
    } finally {
      assert.equal(await next.stop(), 0);
    }
    assert.equal(
      existsSync(path.join(first.dataDir, 'taskdown.lock')),
      false,
      'a clean stop frees the data dir',
    );
  });
});

describe('default data dir', () => {
  let vault: Awaited<ReturnType<typeof tempDir>>;
  before(async () => {
    vault = await tempDir('taskdown-default-data-');
  });
  after(() => vault.cleanup());

  /** Starts `serve` without --data-dir, registers a webhook (a secret), stops it. */
  async function serveOnce(): Promise<void> {
    const server = await startTestServer({ vault: vault.dir, dataDirFlag: false });
    try {
      const hook = await server.request('POST', '/api/webhooks', {
        url: 'http://127.0.0.1:9/hook',
        events: ['task.created'],
      });
      assert.equal(hook.status, 201);
    } finally {
      assert.equal(await server.stop(), 0);
    }
  }

  it('keeps state (webhook secrets included) in the per-user state folder, not in the vault', async () => {
    await serveOnce();
    assert.deepEqual(await readdir(vault.dir), [], 'nothing written into the vault');
    const stateRoot = path.join(isolatedHome().XDG_STATE_HOME as string, 'taskdown');
    const folders = readdirSync(stateRoot).filter((f) => f.startsWith(`${path.basename(vault.dir)}-`));
    assert.equal(folders.length, 1, readdirSync(stateRoot).join(', '));
    const files = readdirSync(path.join(stateRoot, folders[0] as string));
    assert.ok(files.includes('taskdown.sqlite'), files.join(', '));
  });

  it('keeps using an existing <vault>/.taskdown', async () => {
    await mkdir(path.join(vault.dir, '.taskdown'));
    await serveOnce();
    assert.ok(existsSync(path.join(vault.dir, '.taskdown', 'taskdown.sqlite')));
  });
});
