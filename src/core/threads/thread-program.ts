/**
 * Starting a thread whose program is a module of its own beside the module that starts it. Built,
 * that module is a `.cjs` file beside the bundle (whose `import.meta.url` is the bundle's: see
 * scripts/build-server.mjs), loaded as CommonJS, which starts the thread about 10 ms sooner than
 * an ES module; from tsc's output, the `.js` beside the caller; from the TypeScript sources (the
 * tests), the source file, with tsx's loader registered in the thread first (Node 20 does not
 * apply the parent's `--import tsx` to a worker's own imports).
 */
import path from 'node:path';

/** The URL of thread program `name` beside the caller, with the caller's extension. */
export function threadModule(name: string, callerUrl: string): string {
  return new URL(`./${name}${path.extname(new URL(callerUrl).pathname)}`, callerUrl).href;
}

/** What such a thread runs first (with `eval: true`): the module named by `workerData.module`. */
export const THREAD_START = `
const { workerData } = require('node:worker_threads');
const { module } = workerData;
if (module.endsWith('.cjs')) {
  require(require('node:url').fileURLToPath(module));
} else {
  const ready = module.endsWith('.ts') ? import('tsx/esm/api').then((tsx) => tsx.register()) : Promise.resolve();
  ready.then(() => import(module));
}
`;
