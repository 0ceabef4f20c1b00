// Builds the `taskdown` executable into dist/bin:
//   dist/bin/server.cjs         the server: src/cli/main.ts and everything it imports, dependencies
//                               included, in one CommonJS file (esbuild)
//   dist/bin/taskdown.js        the launcher (src/cli/launcher.ts, package.json "bin")
//   dist/bin/note-reader-thread.cjs  the program of a start's reader thread, which the server
//                               starts from beside itself (src/core/vault/note-prefetch.ts)
//   dist/bin/ics-parse-thread.cjs  the program of the thread that reads a calendar feed
//                               (src/core/calendars/ics-parse-bounded.ts), ical.js bundled in it
//   dist/bin/nlp-parser.cjs     the natural-language parser (tasknotes-nlp-core with chrono-node
//                               and date-fns), which server.cjs loads on the first NLP request
//   dist/bin/THIRD-PARTY-NOTICES.txt  licences of the packages bundled into server.cjs,
//                               ics-parse-thread.cjs and nlp-parser.cjs
//   dist/docs-ui/               Swagger UI's browser files with their licences (copied from
//                               @fastify/swagger-ui and third_party/swagger-ui)
//   dist/bin/server.cjs.<V8 version>.cache
//                               V8 code cache of server.cjs for the Node that ran the build,
//                               written by the warm-up run below (other Nodes use their own
//                               compile cache, or none: see the launcher)
// One file instead of ~600 modules spares Node the module resolution; the code cache spares V8
// compiling what a start runs (docs/performance.md). tsc still type-checks and emits dist/src
// (the conformance adapter and in-process tools use it).
import { spawn } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { lazyBuiltins } from './lib/lazy-builtins.mjs';
import { writeThirdPartyNotices } from './lib/third-party-notices.mjs';

const OUT = 'dist/bin';
const SERVER = `${OUT}/server.cjs`;
const LAUNCHER = `${OUT}/taskdown.js`;
const READER = `${OUT}/note-reader-thread.cjs`;
const ICS_THREAD = `${OUT}/ics-parse-thread.cjs`;
const NLP_PARSER = `${OUT}/nlp-parser.cjs`;
const NLP_PACKAGE = 'tasknotes-nlp-core';
const CACHE = `${SERVER}.${process.versions.v8}.cache`;
const PACKAGE = JSON.parse(readFileSync('package.json', 'utf8'));
// The bundle is written as the function CommonJS would wrap it in, so that the launcher compiles
// its text as it was read: wrapping it there made a second 2.4 MB string for V8 to copy whole
// (about 600 new pages, 8–10 ms of every start on the development machine, docs/performance.md).
// Required as a CommonJS module (Node's own compile cache, or none) it calls that function itself
// with the loader's arguments; run as a script it evaluates to the function, for the launcher.
const MODULE_FUNCTION =
  "(typeof module === 'object' ? (run) => run(exports, require, module, __filename, __dirname) : (run) => run)" +
  '(function (exports, require, module, __filename, __dirname) {';
rmSync(OUT, { recursive: true, force: true });

const server = await build({
  entryPoints: ['src/cli/main.ts'],
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  outfile: SERVER,
  // For development (`node --enable-source-maps`); the package does not ship it (5 MB).
  sourcemap: 'linked',
  // Every package in `dependencies` and `optionalDependencies` is installed with Taskdown and
  // loaded from node_modules; all other code is bundled (those packages are devDependencies), so
  // nothing is both. Installed: better-sqlite3 (optional: the SQLite driver on Node 20
  // only, docs/store.md), a native addon whose JavaScript finds the compiled `.node` file relative
  // to its own package folder; the MCP SDK and zod (~1 MB), which
  // load on the first MCP request only (at once in `taskdown mcp`), so a server no agent talks to
  // never compiles them; undici, the outbound HTTP client, which loads on the first webhook
  // delivery or calendar fetch only (src/core/net/http-client.ts); rrule, which the NLP parser
  // uses too. (semver, which only Fastify uses, is bundled: loaded from
  // node_modules it cost about 15 ms of every start, its 40 small files resolved and compiled
  // without the code cache; other installed packages may still bring a copy of their own.)
  // The NLP parser is bundled into a file of its own (below), loaded on the first NLP request:
  // inside server.cjs every start would compile it and V8 would hold its 0.9 MB of source.
  external: [...Object.keys(PACKAGE.dependencies ?? {}), ...Object.keys(PACKAGE.optionalDependencies ?? {})],
  // The licence notices of what is bundled are written beside the bundle (below).
  metafile: true,
  plugins: [
    lazyBuiltins,
    {
      name: 'nlp-parser-file',
      setup(build) {
        build.onResolve({ filter: new RegExp(`^${NLP_PACKAGE}$`) }, () => ({
          path: `./${path.basename(NLP_PARSER)}`,
          external: true,
        }));
      },
    },
  ],
  // import() becomes require(): V8 code-cached functions cannot use the dynamic import callback
  // of a vm.Script (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING), and the NLP parser ships CommonJS.
  supported: { 'dynamic-import': false },
  // Less source to read and keep in memory; identifiers stay, so stack traces stay readable.
  minifyWhitespace: true,
  minifySyntax: true,
  // import.meta does not exist in CommonJS; the bundle's URL is derived from its file name.
  define: { 'import.meta.url': '__bundleUrl' },
  // The bundle's text is its own module function (MODULE_FUNCTION, above).
  banner: {
    js: `${MODULE_FUNCTION}'use strict';\nvar __bundleUrl = require('node:url').pathToFileURL(__filename).href;`,
  },
  footer: { js: '\n});' },
  legalComments: 'none',
  logLevel: 'warning',
});

await build({
  entryPoints: ['src/cli/launcher.ts'],
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outfile: LAUNCHER,
  banner: { js: '#!/usr/bin/env node' },
  logLevel: 'warning',
});
chmodSync(LAUNCHER, 0o755);

const reader = await build({
  entryPoints: ['src/core/vault/note-reader-thread.ts'],
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  outfile: READER,
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
});
// Only the project's own code: its notices would otherwise have to be written beside it too.
const readerPackages = Object.keys(reader.metafile.inputs).filter((input) => input.includes('node_modules'));
if (readerPackages.length > 0) throw new Error(`${READER} bundles packages: ${readerPackages.join(', ')}`);

const icsThread = await build({
  entryPoints: ['src/core/calendars/ics-parse-thread.ts'],
  bundle: true,
  format: 'cjs',
  platform: 'node',
  // windows-iana's `main` picks its development or production build at run time, so both would
  // be bundled: its ES module build is the one file.
  mainFields: ['module', 'main'],
  target: 'node20',
  outfile: ICS_THREAD,
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
});
// ical.js and windows-iana only (their notices go into THIRD-PARTY-NOTICES.txt with server.cjs's).
const icsPackages = Object.keys(icsThread.metafile.inputs).filter(
  (input) => input.includes('node_modules') && !/node_modules\/(ical\.js|windows-iana)\//.test(input),
);
if (icsPackages.length > 0) throw new Error(`${ICS_THREAD} bundles packages: ${icsPackages.join(', ')}`);

// The NLP parser as one file, rrule excepted (installed: the server's recurrence uses it too).
// From its CommonJS build: loaded from node_modules, its 1,000 files (with date-fns's) took
// about 190 ms to load against 80 ms for the one bundled file (Node 20.20, no code cache).
const nlpParser = await build({
  stdin: { contents: `module.exports = require('${NLP_PACKAGE}');`, resolveDir: '.', loader: 'js' },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  outfile: NLP_PARSER,
  external: ['rrule'],
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
});
const nlpPackages = Object.keys(nlpParser.metafile.inputs).filter(
  (input) =>
    input.includes('node_modules') &&
    !/node_modules\/(tasknotes-nlp-core|chrono-node|date-fns)\//.test(input),
);
if (nlpPackages.length > 0) throw new Error(`${NLP_PARSER} bundles packages: ${nlpPackages.join(', ')}`);

writeThirdPartyNotices(
  {
    ...server.metafile,
    inputs: { ...server.metafile.inputs, ...icsThread.metafile.inputs, ...nlpParser.metafile.inputs },
  },
  `${OUT}/THIRD-PARTY-NOTICES.txt`,
  `${SERVER}, ${ICS_THREAD} and ${NLP_PARSER}`,
);
copyDocsUi();

// The source is held in memory as long as the server runs: as a one-byte string when it is ASCII.
if (readFileSync(SERVER).some((byte) => byte > 0x7f)) throw new Error(`${SERVER} is not ASCII`);

await warmUp();
if (!existsSync(CACHE)) throw new Error(`the warm-up run wrote no ${CACHE}`);

/**
 * Swagger UI's files as @fastify/swagger-ui ships them (its `static/` folder; the bundle cannot
 * find that folder from dist/bin), only those the page loads, with Swagger UI's licence files,
 * which that package leaves out (third_party/swagger-ui/README.md).
 */
function copyDocsUi() {
  const from = path.join('node_modules', '@fastify', 'swagger-ui', 'static');
  const licences = path.join('third_party', 'swagger-ui');
  const to = path.join('dist', 'docs-ui');
  const version = /^Swagger UI version: (\S+)$/m.exec(
    readFileSync(path.join(licences, 'README.md'), 'utf8'),
  )?.[1];
  const bundle = readFileSync(path.join(from, 'swagger-ui-bundle.js'), 'latin1');
  if (!version || !bundle.includes(`PACKAGE_VERSION:"${version}"`)) {
    throw new Error(`@fastify/swagger-ui no longer ships Swagger UI ${version}: update ${licences}`);
  }
  rmSync(to, { recursive: true, force: true });
  mkdirSync(to, { recursive: true });
  for (const name of [
    'swagger-ui-bundle.js',
    'swagger-ui-standalone-preset.js',
    'swagger-ui.css',
    'index.css',
    'favicon-16x16.png',
    'favicon-32x32.png',
    'oauth2-redirect.html',
    'oauth2-redirect.js',
  ]) {
    copyFileSync(path.join(from, name), path.join(to, name));
  }
  for (const name of [
    'LICENSE',
    'NOTICE',
    'swagger-ui-bundle.js.LICENSE.txt',
    'swagger-ui-standalone-preset.js.LICENSE.txt',
  ]) {
    copyFileSync(path.join(licences, name), path.join(to, name));
  }
}

/**
 * Runs the built server once on a demo vault with the requests a typical start serves, then stops
 * it: a failed start fails the build, and on exit the launcher writes the code cache of
 * everything compiled by then.
 */
async function warmUp() {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'taskdown-warm-up-'));
  try {
    const child = spawn(
      process.execPath,
      [
        LAUNCHER,
        'serve',
        '--vault',
        path.join(tmp, 'vault'),
        '--create-demo',
        '--data-dir',
        path.join(tmp, 'data'),
        '--port',
        '0',
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, TASKDOWN_WRITE_CODE_CACHE: CACHE, TASKDOWN_LOG_LEVEL: 'warn' },
      },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    const exited = new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`warm-up server exited with ${code}:\n${stderr}`)),
      );
    });
    const url = await new Promise((resolve, reject) => {
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (chunk) => {
        out += chunk;
        const m = /taskdown listening on (\S+)/.exec(out);
        if (m) resolve(m[1]);
      });
      exited.then(() => reject(new Error('warm-up server stopped before listening')), reject);
    });
    const query = {
      type: 'group',
      id: 'root',
      conjunction: 'and',
      sortKey: 'due',
      sortDirection: 'asc',
      children: [{ type: 'condition', id: 'c1', property: 'status', operator: 'is-not', value: 'done' }],
    };
    await request(`${url}/api/health`);
    await request(`${url}/api/tasks?limit=50`);
    await request(`${url}/api/tasks/query`, JSON.stringify(query));
    child.kill('SIGTERM');
    await exited;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function request(url, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: body ? 'POST' : 'GET' }, (res) => {
      res.resume();
      res.on('end', () =>
        res.statusCode === 200 ? resolve() : reject(new Error(`${url}: ${res.statusCode}`)),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}
