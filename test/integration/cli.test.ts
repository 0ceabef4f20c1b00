/** The `taskdown` command line: flags, environment, exit codes and one-line errors. */
import assert from 'node:assert/strict';
import { closeSync, existsSync, openSync } from 'node:fs';
import { createServer } from 'node:net';
import { execFile, spawn } from 'node:child_process';
import { copyFile, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import nodeModule from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { builtCli, runCli, startTestServer, waitFor } from '../helpers/server-process.js';
import { tempDir } from '../helpers/temp.js';

const execFileAsync = promisify(execFile);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DIST_BIN = path.join(ROOT, 'dist', 'bin');

/** One line on stderr, no stack trace. */
function assertOneLine(stderr: string, pattern: RegExp): void {
  const lines = stderr.trim().split('\n');
  assert.equal(lines.length, 1, `expected one line, got:\n${stderr}`);
  assert.match(lines[0] ?? '', pattern);
  assert.ok(!/\n\s+at /.test(stderr), 'stack trace printed');
}

/**
 * Runs `taskdown serve` at log level info with stderr on a pipe, asks for /api/health once and
 * stops it: what it wrote to stdout and stderr.
 */
async function serveOnce(vault: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  const dataDir = await tempDir();
  const child = spawn(
    process.execPath,
    [builtCli(), 'serve', '--vault', vault, '--data-dir', dataDir.dir, '--port', '0', ...args],
    { env: { ...process.env, TASKDOWN_LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        const match = /listening on (\S+)/.exec(stdout);
        if (match?.[1]) resolve(match[1]);
      });
      void exited.then(() => reject(new Error(`server exited before listening:\n${stderr}`)));
    });
    assert.equal((await fetch(`${url}/api/health`)).status, 200);
    await waitFor(() => stderr.includes('/api/health'));
    child.kill('SIGTERM');
    assert.equal(await exited, 0, stderr);
    return { stdout, stderr };
  } finally {
    child.kill('SIGKILL');
    await dataDir.cleanup();
  }
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

  it('loads the bundle with the code cache the build wrote for this Node', async () => {
    const cache = path.join(DIST_BIN, `server.cjs.${process.versions.v8}.cache`);
    assert.ok(
      existsSync(cache),
      `dist/ was built by another Node: run \`npm run build\` with ${process.version}`,
    );
    const res = await runCli(['--version'], { TASKDOWN_LAUNCH_REPORT: '1' });
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stderr, /^taskdown: code cache used$/m);
  });

  it('serves without loading node:http2, node:https or node:dns/promises', async () => {
    const tmp = await tempDir();
    try {
      // A preload that writes the built-in modules the process loaded when it exits.
      const preload = path.join(tmp.dir, 'modules.cjs');
      const list = path.join(tmp.dir, 'modules.txt');
      await writeFile(
        preload,
        `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(list)}, ` +
          "process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).join('\\n')));",
      );
      const child = spawn(
        process.execPath,
        [builtCli(), 'serve', '--create-demo', '--vault', path.join(tmp.dir, 'vault')].concat([
          '--data-dir',
          path.join(tmp.dir, 'data'),
          '--port',
          '0',
        ]),
        {
          env: { ...process.env, NODE_OPTIONS: `--require ${preload}`, TASKDOWN_LOG_LEVEL: 'warn' },
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      let stdout = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          stdout += chunk;
          const match = /listening on (\S+)/.exec(stdout);
          if (match?.[1]) resolve(match[1]);
        });
        void exited.then(() => reject(new Error('the server exited before listening')));
      });
      assert.equal((await fetch(`${url}/api/tasks?limit=1`)).status, 200);
      child.kill('SIGTERM');
      assert.equal(await exited, 0);
      const modules = (await readFile(list, 'utf8')).split('\n');
      assert.ok(modules.includes('NativeModule http'), 'the list names the modules loaded');
      assert.deepEqual(
        modules.filter((m) => /^NativeModule (http2|https|dns\/promises)$/.test(m)),
        [],
      );
    } finally {
      await tmp.cleanup();
    }
  });

  it('runs the server with an 8 MB young generation where Node can restart itself with it', async () => {
    const canExec = typeof (process as { execve?: unknown }).execve === 'function';
    // The launcher reports before the command runs: a vault that does not exist ends it at once.
    const serve = ['serve', '--vault', path.join(os.tmpdir(), 'taskdown-no-such-vault')];
    const res = await runCli(serve, { TASKDOWN_LAUNCH_REPORT: '1', NODE_OPTIONS: '' });
    assert.equal(res.code, 2, res.stderr);
    assert.match(
      res.stderr,
      canExec ? /^taskdown: node options --max-semi-space-size=4$/m : /^taskdown: node options \(none\)$/m,
    );
    // A size the user chose is left alone.
    const own = await runCli(serve, {
      TASKDOWN_LAUNCH_REPORT: '1',
      NODE_OPTIONS: '--max-semi-space-size=16',
    });
    assert.match(own.stderr, /^taskdown: node options \(none\)$/m);
    // A command that ends at once is not worth a second Node start.
    const version = await runCli(['--version'], { TASKDOWN_LAUNCH_REPORT: '1', NODE_OPTIONS: '' });
    assert.equal(version.code, 0, version.stderr);
    assert.match(version.stderr, /^taskdown: node options \(none\)$/m);
  });

  it("with a build made by another Node, uses Node's own compile cache where Node has one", async () => {
    // The executable and bundle without the build's cache, as a build by another Node leaves them.
    const tmp = await tempDir();
    try {
      const bin = path.join(tmp.dir, 'pkg', 'dist', 'bin');
      await mkdir(bin, { recursive: true });
      for (const file of ['taskdown.js', 'server.cjs'])
        await copyFile(path.join(DIST_BIN, file), path.join(bin, file));
      await writeFile(
        path.join(tmp.dir, 'pkg', 'package.json'),
        '{"name":"taskdown","version":"0.0.1","type":"module"}',
      );
      await symlink(path.join(ROOT, 'node_modules'), path.join(tmp.dir, 'pkg', 'node_modules'));
      // NODE_COMPILE_CACHE empty: the launcher's call decides, and the cache goes to the temp folder.
      const env = {
        ...process.env,
        TASKDOWN_LAUNCH_REPORT: '1',
        NODE_COMPILE_CACHE: '',
        TMPDIR: tmp.dir,
      };
      const res = await execFileAsync(process.execPath, [path.join(bin, 'taskdown.js'), '--version'], {
        env,
      });
      assert.equal(res.stdout.trim(), '0.0.1');
      if (typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === 'function') {
        const dir = path.join(tmp.dir, 'node-compile-cache');
        assert.match(res.stderr, new RegExp(`^taskdown: compile cache ENABLED in ${dir}$`, 'm'));
        // This start wrote the bundle's cache for the next one.
        const entries = await readdir(dir, { recursive: true, withFileTypes: true });
        assert.ok(
          entries.some((e) => e.isFile()),
          'no compile cache written',
        );
      } else {
        assert.match(res.stderr, /^taskdown: no code cache for this Node$/m);
      }
    } finally {
      await tmp.cleanup();
    }
  });

  it('reads the notes of a first start on a second thread, and looks them up there at a restart', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 2_500; i++) {
      files[`TaskNotes/Tasks/Task ${i}.md`] = `---\ntitle: Task ${i}\nstatus: open\ntags:\n  - task\n---\n`;
    }
    const first = await startTestServer({ files, env: { TASKDOWN_LAUNCH_REPORT: '1' } });
    try {
      assert.match(first.stderr(), /^taskdown: reading 2500 notes on a second thread$/m);
      const res = await first.request(
        'GET',
        `/api/tasks/${encodeURIComponent('TaskNotes/Tasks/Task 1234.md')}`,
      );
      assert.equal(res.status, 200, res.text);
      assert.equal((res.body as { data: { title: string } }).data.title, 'Task 1234');
      const list = await first.request('GET', '/api/tasks?limit=1');
      assert.equal((list.body as { data: { pagination: { total: number } } }).data.pagination.total, 2_500);
      await waitFor(() => existsSync(path.join(first.dataDir, 'index-snapshot.json')), 20_000);
      await first.stop();
      const again = await startTestServer({
        vault: first.vault,
        dataDir: first.dataDir,
        env: { TASKDOWN_LAUNCH_REPORT: '1' },
      });
      try {
        assert.match(again.stderr(), /^taskdown: looking up 2500 notes on a second thread$/m);
        const total = await again.request('GET', '/api/tasks?limit=1');
        assert.equal(
          (total.body as { data: { pagination: { total: number } } }).data.pagination.total,
          2_500,
        );
      } finally {
        await again.cleanup();
      }
    } finally {
      await first.cleanup();
    }
  });

  it('exits 2 with one clear line on usage errors', async () => {
    const cases: Array<[string[], RegExp]> = [
      [[], /missing command/],
      [['launch'], /unknown command "launch"/],
      [['serve'], /--vault DIR is required/],
      [
        ['serve', '--vault', vault, '--bogus'],
        /^taskdown: unknown option --bogus \(see "taskdown --help"\)$/,
      ],
      [
        ['serve', '--vault', path.join(vault, 'missing')],
        /does not exist \(check the path, or add --create-demo/,
      ],
      [['serve', '--vault', vault, '--port', 'eighty'], /invalid port "eighty"/],
      [['serve', '--vault', vault, '--port', '70000'], /invalid port "70000"/],
      [['serve', '--vault', vault, '--log-level', 'loud'], /invalid log level/],
      [['serve', '--vault', vault, '--log-format', 'fancy'], /invalid log format "fancy"/],
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
    // A data dir or a demo vault where a file stands: the same, not a bare EEXIST or ENOTDIR.
    for (const args of [
      ['serve', '--vault', vault, '--data-dir', file],
      ['serve', '--vault', vault, '--data-dir', path.join(file, 'state')],
      ['serve', '--vault', path.join(file, 'demo'), '--create-demo'],
    ]) {
      const refused = await runCli(args);
      assert.equal(refused.code, 2, `${args.join(' ')}: ${refused.stderr}`);
      assertOneLine(refused.stderr, /is not a folder$/);
    }
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

  it('says once that it listens (stdout) and logs JSON lines on stderr when it is not a terminal', async () => {
    const run = await serveOnce(vault, []);
    assert.match(run.stdout, /^taskdown listening on http:\/\/127\.0\.0\.1:\d+\n$/);
    const lines = run.stderr.trim().split('\n');
    const entries = lines.map((line) => JSON.parse(line) as { msg: string; url?: string; level: number });
    assert.ok(
      entries.some((e) => e.msg === 'request completed' && e.url === '/api/health'),
      run.stderr,
    );
    assert.ok(!entries.some((e) => /listening/i.test(e.msg)), `a second listening line:\n${run.stderr}`);
  });

  it('logs readable lines with --log-format pretty (colourless off a terminal)', async () => {
    const run = await serveOnce(vault, ['--log-format', 'pretty']);
    assert.match(run.stdout, /^taskdown listening on http:\/\/127\.0\.0\.1:\d+\n$/);
    assert.match(
      run.stderr,
      /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/api\/health 200 \d+\.\d ms \{"reqId":"[\w-]+"\}$/m,
    );
    assert.match(run.stderr, /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: shutting down \{"signal":"SIGTERM"\}$/m);
    assert.doesNotMatch(run.stderr, /^\{/m, 'a JSON line');
    assert.ok(!run.stderr.includes('\u001b['), 'colours off a terminal');
    assert.doesNotMatch(run.stderr, /listening/i);
  });

  it(
    'keeps serving when its log cannot be written (stderr on a full disk)',
    { skip: !existsSync('/dev/full') },
    async () => {
      const dataDir = await tempDir();
      const full = openSync('/dev/full', 'w');
      const child = spawn(
        process.execPath,
        [
          builtCli(),
          'serve',
          '--vault',
          vault,
          '--data-dir',
          dataDir.dir,
          '--port',
          '0',
          '--log-level',
          'debug',
        ],
        { stdio: ['ignore', 'pipe', full] },
      );
      closeSync(full);
      try {
        const url = await new Promise<string>((resolve, reject) => {
          let stdout = '';
          child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
            stdout += chunk;
            const match = /listening on (\S+)/.exec(stdout);
            if (match?.[1]) resolve(match[1]);
          });
          child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
        });
        for (let i = 0; i < 5; i++) assert.equal((await fetch(`${url}/api/health`)).status, 200);
        assert.equal(child.exitCode, null);
      } finally {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGTERM');
          await new Promise((resolve) => child.once('exit', resolve));
        }
        await dataDir.cleanup();
      }
    },
  );

  it('says in one line why the TaskNotes settings cannot be read, without a stack trace', async () => {
    const broken = await tempDir();
    try {
      await mkdir(path.join(broken.dir, '.obsidian/plugins/tasknotes'), { recursive: true });
      await writeFile(path.join(broken.dir, '.obsidian/plugins/tasknotes/data.json'), '{broken');
      const run = await serveOnce(broken.dir, ['--log-format', 'pretty']);
      assert.match(
        run.stderr,
        /^\[[\d:.]+\] WARN: cannot read \.obsidian\/plugins\/tasknotes\/data\.json; using TaskNotes defaults \{"reason":"[^"]*JSON[^"]*"\}$/m,
      );
      assert.doesNotMatch(run.stderr, /\bat \S+ \(|stack/);
    } finally {
      await broken.cleanup();
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
