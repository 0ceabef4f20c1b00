/**
 * The `taskdown` executable (dist/bin/taskdown.js). It starts Node the way the server wants it and
 * loads the bundled server, dist/bin/server.cjs, with a V8 code cache. Figures and the reasons are
 * in docs/performance.md; everything here uses documented Node APIs and options, and each part
 * that a Node version lacks is skipped there.
 *
 * 1. Young generation. A start-up scan keeps nearly everything it parses, so V8 grows the young
 *    generation to its maximum (32 MB on Node 20, 64 MB on Node 24) and keeps it resident for
 *    good, although a request leaves almost nothing behind. Where Node has `process.execve`
 *    (≥ 22.15, not on Windows), the launcher of a command that keeps running (`serve`, `mcp`)
 *    replaces itself once, before loading anything, by the same command with
 *    `--max-semi-space-size=4` (an 8 MB young generation); same process id, same standard
 *    streams. The second Node start-up it costs (about 90 ms) is not worth it for the commands that
 *    end at once (`--version`, `--help`, `check`, a usage error). A size given on the node command
 *    line or in NODE_OPTIONS is left alone.
 * 2. Code cache. When the build left a cache made by this very V8 (server.cjs.<V8 version>.cache,
 *    written from a warm-up run that served a typical start's requests), the bundle is compiled
 *    through `vm.Script` with it: the functions a start runs are deserialised, not compiled.
 *    Otherwise Node's own compile cache is used where Node has one (`module.enableCompileCache()`,
 *    ≥ 22.1; in NODE_COMPILE_CACHE or the system's temporary folder, written by the first start;
 *    NODE_DISABLE_COMPILE_CACHE=1 turns it off); on Node 20 the bundle is then compiled as usual.
 *
 * With TASKDOWN_LAUNCH_REPORT=1 the launcher says on stderr which node options the server runs
 * with and which cache it used (for the tests). The build sets TASKDOWN_WRITE_CODE_CACHE=<file> on its warm-up run: the cache of
 * everything compiled by then is written to <file> when the process exits.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import nodeModule, { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

/** Both semi-spaces together: 8 MB, as docs/performance.md measures. */
const YOUNG_GENERATION_FLAG = '--max-semi-space-size=4';

const filename = fileURLToPath(new URL('./server.cjs', import.meta.url));
const report = process.env.TASKDOWN_LAUNCH_REPORT === '1';

/** Node ≥ 22.15 has `execve`, ≥ 22.1 `enableCompileCache`; Node 20's types declare neither. */
const { execve } = process as { execve?: (file: string, args: string[], env: NodeJS.ProcessEnv) => never };
const { enableCompileCache, constants } = nodeModule as {
  enableCompileCache?: () => { status: number; directory?: string };
  constants?: { compileCacheStatus?: Record<string, number> };
};

const sizedByUser = /--max-semi-space-size|--semi-space/.test(
  [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' '),
);
// Any argument naming one (an option's value may too, which only costs the second start).
const keepsRunning = process.argv.slice(2).some((arg) => arg === 'serve' || arg === 'mcp');
if (execve && !sizedByUser && keepsRunning) {
  execve(
    process.execPath,
    [process.execPath, YOUNG_GENERATION_FLAG, ...process.execArgv, ...process.argv.slice(1)],
    process.env,
  );
}

if (report) process.stderr.write(`taskdown: node options ${process.execArgv.join(' ') || '(none)'}\n`);

const buildCache = `${filename}.${process.versions.v8}.cache`;
const writeCache = process.env.TASKDOWN_WRITE_CODE_CACHE;
if (writeCache || existsSync(buildCache)) {
  runWithBuildCache(writeCache ? undefined : buildCache, writeCache);
} else if (enableCompileCache) {
  const { status, directory } = enableCompileCache();
  if (report) {
    const statuses = Object.entries(constants?.compileCacheStatus ?? {});
    const name = statuses.find(([, value]) => value === status)?.[0] ?? String(status);
    process.stderr.write(`taskdown: compile cache ${name}${directory ? ` in ${directory}` : ''}\n`);
  }
  createRequire(import.meta.url)(filename);
} else {
  if (report) process.stderr.write('taskdown: no code cache for this Node\n');
  createRequire(import.meta.url)(filename);
}

/**
 * Compiles the bundle with the build's code cache (or, on the build's warm-up run, without one and
 * writes it at exit), then runs it as a CommonJS module.
 */
function runWithBuildCache(cacheFile: string | undefined, cacheOut: string | undefined): void {
  const cachedData = cacheFile === undefined ? undefined : readFileSync(cacheFile);
  // The bundle's text is the CommonJS module function (the build writes it so): run as a script it
  // evaluates to that function. Nothing here keeps the source text or the cache buffer alive once
  // the script is compiled. The build checks that the bundle is ASCII, so reading it as Latin-1
  // gives the same string; Node 20's UTF-8 file read is the slow one: the 2.4 MB bundle's first
  // read in a process took 28 ms as UTF-8 and 19 ms as Latin-1 on Node 20.20 (19–20 ms either way
  // on Node 24.21), most of it the 1,250 pages the buffer and the string are new memory in.
  // The bundle has no import(): code-cached functions could not use a dynamic import callback.
  const script = new vm.Script(readFileSync(filename, 'latin1'), { filename, cachedData });
  if (report && cachedData) {
    process.stderr.write(`taskdown: code cache ${script.cachedDataRejected ? 'rejected' : 'used'}\n`);
  }
  if (cacheOut) process.once('exit', () => writeFileSync(cacheOut, script.createCachedData()));
  const run = script.runInThisContext() as (
    exports: object,
    require: NodeJS.Require,
    module: { exports: object },
    filename: string,
    dirname: string,
  ) => void;
  const module = { exports: {} };
  run(module.exports, createRequire(filename), module, filename, path.dirname(filename));
}
