/**
 * The npm package as a user gets it: `npm pack` of the built project, installed from the tarball
 * into a temporary prefix, `taskdown serve --create-demo --port 0` answering a health request —
 * also when the package's code cache was made by another Node version.
 *
 * The tarball is packed with --ignore-scripts from the build `npm test` just made (packing runs
 * `prepare`, a full build, which would replace dist/ under the other tests' feet). The install
 * skips install scripts as well and copies better-sqlite3's compiled addon from this checkout:
 * compiling it again from source takes minutes, and it is the same Node's build of the same version.
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { copyFile, mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { tempDir, writeFiles } from '../helpers/temp.js';

const run = promisify(execFile);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

interface PackEntry {
  filename: string;
  size: number;
  unpackedSize: number;
  files: { path: string; size: number }[];
}

/** A GET, or a POST of `json` when given. */
function get(url: string, json?: unknown): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const body = json === undefined ? undefined : JSON.stringify(json);
    http
      .request(
        url,
        { method: body ? 'POST' : 'GET', headers: body ? { 'content-type': 'application/json' } : {} },
        (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (c: string) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      )
      .on('error', reject)
      .end(body);
  });
}

/** Files of the package the server serves, beside the API: the status each answers. */
const SERVED = ['/', '/assets/main.js', '/api/docs/ui', '/api/docs/ui/static/swagger-ui-bundle.js'];

/**
 * Starts the installed executable as npm linked it; resolves with its health answer and what the
 * paths in SERVED answer.
 */
async function serveAndCheck(
  bin: string,
  dir: string,
  env: Record<string, string> = {},
): Promise<{ status: number; body: string; stderr: string; served: Record<string, number>; parsed: string }> {
  const child = spawn(
    process.execPath,
    [
      bin,
      'serve',
      '--create-demo',
      '--vault',
      path.join(dir, 'vault'),
      '--data-dir',
      path.join(dir, 'data'),
      '--port',
      '0',
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        TASKDOWN_LOG_LEVEL: 'warn',
        NODE_COMPILE_CACHE: path.join(dir, 'compile-cache'),
        ...env,
      },
    },
  );
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (c: string) => {
        out += c;
        const m = /taskdown listening on (\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      void exited.then(() => reject(new Error(`the installed taskdown exited before listening:\n${stderr}`)));
    });
    const served: Record<string, number> = {};
    for (const p of SERVED) served[p] = (await get(`${url}${p}`)).status;
    // The NLP parser is a file of its own beside the server's bundle, loaded on this first use.
    const parsed = (await get(`${url}/api/nlp/parse`, { text: 'Call Ana tomorrow #work' })).body;
    return { ...(await get(`${url}/api/health`)), stderr, served, parsed };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

describe('the npm package', () => {
  let tmp: { dir: string; cleanup: () => Promise<void> };
  let pack: PackEntry;
  let installed: string;
  let bin: string;

  before(async () => {
    tmp = await tempDir('taskdown-package-');
    const { stdout } = await run(NPM, ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp.dir], {
      cwd: ROOT,
      maxBuffer: 16 * 1024 * 1024,
    });
    pack = (JSON.parse(stdout) as PackEntry[])[0]!;
    const prefix = path.join(tmp.dir, 'prefix');
    await mkdir(prefix);
    await run(
      NPM,
      [
        'install',
        '--prefix',
        prefix,
        '--ignore-scripts',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        path.join(tmp.dir, pack.filename),
      ],
      { cwd: tmp.dir, maxBuffer: 16 * 1024 * 1024 },
    );
    installed = path.join(prefix, 'node_modules', 'taskdown');
    bin = path.join(prefix, 'node_modules', '.bin', 'taskdown');
    const addon = path.join('node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
    await mkdir(path.dirname(path.join(prefix, addon)), { recursive: true });
    await copyFile(path.join(ROOT, addon), path.join(prefix, addon));
  });
  after(() => tmp?.cleanup());

  it('ships what runs and nothing else', () => {
    const files = pack.files.map((f) => f.path).sort();
    for (const needed of [
      'LICENSE',
      'README.md',
      'package.json',
      'dist/bin/taskdown.js',
      'dist/bin/server.cjs',
      'dist/bin/note-reader-thread.cjs',
      'dist/bin/nlp-parser.cjs',
      'dist/bin/THIRD-PARTY-NOTICES.txt',
      'dist/web/index.html',
      'dist/web/THIRD-PARTY-NOTICES.txt',
      'dist/docs-ui/swagger-ui-bundle.js',
      'dist/docs-ui/LICENSE',
      'dist/docs-ui/NOTICE',
      'dist/docs-ui/swagger-ui-bundle.js.LICENSE.txt',
      'native/rename-exchange/binding.gyp',
      'native/rename-exchange/rename_exchange.c',
      'scripts/build-native.mjs',
    ]) {
      assert.ok(files.includes(needed), `${needed} is not in the package`);
    }
    assert.deepEqual(
      files.filter((f) =>
        /\.map$|^dist\/src\/|^src\/|^test\/|^bench\/|^conformance\/|\.node$|\/build\//.test(f),
      ),
      [],
      'source maps, sources, tests, fixtures or compiled addons in the package',
    );
    assert.ok(
      files.some((f) => /^dist\/bin\/server\.cjs\..+\.cache$/.test(f)),
      'no code cache in the package',
    );
    assert.ok(pack.unpackedSize < 8 * 1024 * 1024, `unpacked size ${pack.unpackedSize}`);
  });

  it('installs each of its dependencies or bundles it, never both', async () => {
    // What the bundle holds, as its notices list it.
    const notices = await readFile(path.join(installed, 'dist', 'bin', 'THIRD-PARTY-NOTICES.txt'), 'utf8');
    const bundled = new Set([...notices.matchAll(/^(@?[^@\s]+)@\S+ \(/gm)].map((m) => m[1]!));
    assert.ok(bundled.has('fastify'), 'the notices list no bundled package');
    const pkg = JSON.parse(await readFile(path.join(installed, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const dependencies = Object.keys(pkg.dependencies);
    assert.deepEqual(
      dependencies.filter((name) => bundled.has(name)),
      [],
      'a dependency that is installed is bundled as well',
    );
    // Everything else Taskdown uses is bundled: the package declares nothing more to install, and
    // npm installed each declared dependency.
    const top = await readdir(path.join(tmp.dir, 'prefix', 'node_modules'));
    for (const name of dependencies) assert.ok(top.includes(name.split('/')[0]!), `${name} not installed`);
    assert.deepEqual(
      ['fastify', 'pino', 'yaml', 'js-yaml', 'ical.js', '@fastify/swagger', 'tasknotes-nlp-core'].filter(
        (name) => dependencies.includes(name),
      ),
      [],
    );
    // The NLP parser's packages are in its bundle, not installed (date-fns alone is 5,000 files).
    for (const name of ['tasknotes-nlp-core', 'chrono-node', 'date-fns']) {
      assert.ok(bundled.has(name), `${name} is not in the notices`);
      assert.ok(!top.includes(name), `${name} is installed`);
    }
  });

  it('serves a demo vault from the installed package', async () => {
    const res = await serveAndCheck(bin, path.join(tmp.dir, 'run-1'));
    assert.equal(res.status, 200, res.stderr);
    assert.equal((JSON.parse(res.body) as { data: { status: string } }).data.status, 'ok');
    // The settings page and Swagger UI from the package's own files.
    assert.deepEqual(res.served, Object.fromEntries(SERVED.map((p) => [p, 200])));
    const { parsed } = (JSON.parse(res.parsed) as { data: { parsed: { title: string; tags: string[] } } })
      .data;
    assert.equal(parsed.title, 'Call Ana');
    assert.deepEqual(parsed.tags, ['work']);
  });

  it('walks and reads a large vault on its reader thread', async () => {
    // Without the thread's program in the package the start would still work, the main thread
    // doing it all: the launch report says which.
    const dir = path.join(tmp.dir, 'run-large');
    const files: Record<string, string> = {};
    for (let i = 0; i < 2_100; i++)
      files[`Tasks/Task ${i}.md`] = `---\ntitle: Task ${i}\ntags: [task]\n---\n`;
    await writeFiles(path.join(dir, 'vault'), files);
    const res = await serveAndCheck(bin, dir, { TASKDOWN_LAUNCH_REPORT: '1' });
    assert.equal(res.status, 200, res.stderr);
    assert.match(res.stderr, /^taskdown: reading 2100 notes on a second thread$/m);
  });

  it(
    'builds its rename-exchange addon at install, where a compiler is',
    { skip: !['linux', 'darwin'].includes(process.platform) },
    async () => {
      // The install above skipped scripts; `npm rebuild` runs the package's install script as
      // `npm install` does.
      const prefix = path.join(tmp.dir, 'prefix');
      const { stderr } = await run(
        NPM,
        ['rebuild', 'taskdown', '--prefix', prefix, '--no-audit', '--no-fund'],
        {
          cwd: tmp.dir,
          maxBuffer: 16 * 1024 * 1024,
        },
      );
      assert.doesNotMatch(stderr, /could not be built|does not load/);
      const addon = createRequire(import.meta.url)(
        path.join(installed, 'native', 'rename-exchange', 'build', 'Release', 'rename_exchange.node'),
      ) as { exchange(a: string, b: string): number };
      const a = path.join(tmp.dir, 'swap-a');
      const b = path.join(tmp.dir, 'swap-b');
      await writeFile(a, 'a');
      await writeFile(b, 'b');
      assert.equal(addon.exchange(a, b), 0);
      assert.deepEqual([await readFile(a, 'utf8'), await readFile(b, 'utf8')], ['b', 'a']);
    },
  );

  it(
    'installs without the addon where it cannot be built, saying so in one line',
    { skip: !['linux', 'darwin'].includes(process.platform) },
    async () => {
      // No working C compiler: the install step must not fail (after the test above, which needs the
      // built addon).
      const { stdout, stderr } = await run(
        process.execPath,
        [path.join(installed, 'scripts', 'build-native.mjs')],
        {
          cwd: installed,
          env: { ...process.env, CC: '/bin/false', CXX: '/bin/false' },
        },
      );
      assert.equal(stdout, '');
      assert.match(
        stderr,
        /^taskdown: the rename-exchange addon could not be built \(.+\); notes are written without it \(docs\/vault-safety\.md, "External edits"\)\n$/,
      );
    },
  );

  it('installs no telemetry package', async () => {
    // swagger-ui-dist depends on @scarf/scarf, which reports installs; Swagger UI's files come
    // from @fastify/swagger-ui at build time instead, so nothing installed depends on it.
    const { stdout } = await run(NPM, ['ls', '--all', '--json', '--prefix', path.join(tmp.dir, 'prefix')], {
      cwd: tmp.dir,
      maxBuffer: 16 * 1024 * 1024,
    }).catch((err: { stdout: string }) => ({ stdout: err.stdout }));
    assert.doesNotMatch(stdout, /"@scarf\/scarf"|"swagger-ui-dist"/);
  });

  it('serves as well with a code cache made by another Node version', async () => {
    const binDir = path.join(installed, 'dist', 'bin');
    const own = (await readdir(binDir)).find((f) => f.endsWith('.cache'))!;
    // The build's cache named for another V8, and garbage under this V8's name: neither is usable.
    await rename(path.join(binDir, own), path.join(binDir, 'server.cjs.0.0.0-other.cache'));
    await writeFile(path.join(binDir, `server.cjs.${process.versions.v8}.cache`), 'not a code cache');
    const res = await serveAndCheck(bin, path.join(tmp.dir, 'run-2'));
    assert.equal(res.status, 200, res.stderr);
  });
});
