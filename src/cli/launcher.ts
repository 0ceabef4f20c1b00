/**
 * The `taskdown` executable (dist/bin/taskdown.js). It runs the bundled server, dist/bin/server.cjs,
 * through `vm.Script` with the V8 code cache that the build wrote beside it (server.cjs.cache, from
 * a warm-up run of the server), so a cold start deserializes bytecode instead of compiling the
 * bundle's functions: about 0.1 s of a 0.8 s first start on the 10,000-task bench vault. Node 20 has
 * no built-in compile cache for this (module.enableCompileCache() arrived in Node 22). A missing
 * cache, or one V8 rejects (another Node version or other V8 flags), only costs that time back.
 *
 * Build-time only: with TASKDOWN_WRITE_CODE_CACHE=<file>, the cache of everything compiled so far
 * is written to <file> when the process exits (scripts/build-server.mjs). With
 * TASKDOWN_CODE_CACHE_REPORT=1, whether V8 used the cache is printed on stderr (for the tests).
 *
 * Once the bundle is compiled, the young generation is capped (young-generation.ts). Not in the
 * build's warm-up run: the cache it writes would carry the changed V8 flags, and a normal start,
 * which compiles with the default flags, would reject it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { capYoungGeneration } from './young-generation.js';

const filename = fileURLToPath(new URL('./server.cjs', import.meta.url));

/** Compiles the bundle; nothing here keeps the source text or the cache buffer alive afterwards. */
function compile(): vm.Script {
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(`${filename}.cache`);
  } catch {
    // No cache (e.g. a build without the warm-up): V8 compiles as it would for any module.
  }
  // The CommonJS module wrapper, as Node's own loader applies it.
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${readFileSync(filename, 'utf8')}\n})`;
  // The bundle has no import(): code-cached functions could not use a dynamic import callback.
  const script = new vm.Script(wrapped, { filename, cachedData });
  if (process.env.TASKDOWN_CODE_CACHE_REPORT === '1') {
    const state = cachedData === undefined ? 'missing' : script.cachedDataRejected ? 'rejected' : 'used';
    process.stderr.write(`taskdown: code cache ${state}\n`);
  }
  return script;
}

const script = compile();
const cacheOut = process.env.TASKDOWN_WRITE_CODE_CACHE;
if (cacheOut) process.once('exit', () => writeFileSync(cacheOut, script.createCachedData()));
else capYoungGeneration();

const run = script.runInThisContext() as (
  exports: object,
  require: NodeJS.Require,
  module: { exports: object },
  filename: string,
  dirname: string,
) => void;
const module = { exports: {} };
run(module.exports, createRequire(filename), module, filename, path.dirname(filename));
