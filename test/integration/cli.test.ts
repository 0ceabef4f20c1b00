/** The `taskdown` command line: flags, environment, exit codes and one-line errors. */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli, startTestServer } from '../helpers/server-process.js';
import { tempDir } from '../helpers/temp.js';

/** One line on stderr, no stack trace. */
function assertOneLine(stderr: string, pattern: RegExp): void {
  const lines = stderr.trim().split('\n');
  assert.equal(lines.length, 1, `expected one line, got:\n${stderr}`);
  assert.match(lines[0] ?? '', pattern);
  assert.ok(!/\n\s+at /.test(stderr), 'stack trace printed');
}

describe('taskdown CLI', () => {
  let vault: string;
  let cleanup: () => Promise<void>;
  before(async () => {
    ({ dir: vault, cleanup } = await tempDir());
  });
  after(() => cleanup());

  it('prints help and version', async () => {
    const help = await runCli(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /Usage: taskdown serve --vault DIR/);
    assert.match(help.stdout, /TASKDOWN_TOKEN/);
    const version = await runCli(['--version']);
    assert.equal(version.code, 0);
    assert.match(version.stdout.trim(), /^\d+\.\d+\.\d+/);
  });

  it('runs the bundle with the code cache the build wrote (not rejected by this Node)', async () => {
    const res = await runCli(['--version'], { TASKDOWN_CODE_CACHE_REPORT: '1' });
    assert.equal(res.code, 0, res.stderr);
    assert.equal(res.stderr.trim(), 'taskdown: code cache used');
  });

  it('exits 2 with one clear line on usage errors', async () => {
    const cases: Array<[string[], RegExp]> = [
      [[], /missing command/],
      [['launch'], /unknown command "launch"/],
      [['serve'], /--vault DIR is required/],
      [['serve', '--vault', vault, '--bogus'], /Unknown option '--bogus'/],
      [['serve', '--vault', path.join(vault, 'missing')], /does not exist/],
      [['serve', '--vault', vault, '--port', 'eighty'], /invalid port "eighty"/],
      [['serve', '--vault', vault, '--port', '70000'], /invalid port "70000"/],
      [['serve', '--vault', vault, '--log-level', 'loud'], /invalid log level/],
      [['serve', '--vault', vault, '--webhook-timeout-ms', '5'], /invalid webhook timeout "5"/],
    ];
    for (const [args, pattern] of cases) {
      const res = await runCli(args);
      assert.equal(res.code, 2, `${args.join(' ')}: ${res.stderr}`);
      assertOneLine(res.stderr, pattern);
    }
  });

  it('refuses a vault path that is a file', async () => {
    const file = path.join(vault, 'note.md');
    await writeFile(file, 'x');
    const res = await runCli(['serve', '--vault', file]);
    assert.equal(res.code, 2);
    assertOneLine(res.stderr, /is not a folder/);
  });

  it('refuses a non-loopback host without a token (exit 2)', async () => {
    const res = await runCli(['serve', '--vault', vault, '--host', '0.0.0.0', '--port', '0']);
    assert.equal(res.code, 2);
    assertOneLine(res.stderr, /refusing to listen on non-loopback address 0\.0\.0\.0 without a token/);
  });

  it('reports a port in use with exit 1', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const res = await runCli(['serve', '--vault', vault, '--port', String(port)]);
      assert.equal(res.code, 1);
      assertOneLine(res.stderr, new RegExp(`port ${port} is already in use`));
    } finally {
      blocker.close();
    }
  });

  it('stops with a message naming a corrupt state file instead of resetting it', async () => {
    const dataDir = path.join(vault, 'corrupt-data');
    await mkdir(dataDir);
    await writeFile(path.join(dataDir, 'settings.json'), '{"webhooks": [');
    const res = await runCli(['serve', '--vault', vault, '--data-dir', dataDir, '--port', '0']);
    assert.equal(res.code, 1);
    assertOneLine(res.stderr, /settings\.json is unusable: invalid JSON/);
  });

  it('reads TASKDOWN_* environment variables', async () => {
    const server = await startTestServer({ env: { TASKDOWN_TOKEN: 'from-env' } });
    try {
      assert.equal((await server.request('GET', '/api/health')).status, 401);
      const ok = await server.request('GET', '/api/health', undefined, { authorization: 'Bearer from-env' });
      assert.equal(ok.status, 200);
    } finally {
      await server.cleanup();
    }
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`shuts down cleanly on ${signal} with exit 0`, async () => {
      const server = await startTestServer();
      try {
        assert.equal((await server.request('GET', '/api/health')).status, 200);
        assert.equal(await server.stop(signal), 0);
      } finally {
        await server.cleanup();
      }
    });
  }
});
