// Bundles the server (src/cli/main.ts and everything it imports, dependencies included) into
// dist/bin with esbuild. Node then reads a handful of files at start instead of ~600 modules
// through the ESM resolver: on the 10,000-task bench vault this took the time to the first
// answered request down by a third (bench/scenarios/tasks.ts). Modules loaded with a dynamic
// import() (e.g. the NLP parser) become separate chunks, loaded on first use.
//   dist/bin/taskdown.js   the `taskdown` executable (package.json "bin")
//   dist/bin/chunk-*.js    lazily loaded parts
// tsc still type-checks and emits dist/src (the conformance adapter and in-process tools use it).
import { chmodSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const OUT = 'dist/bin';
rmSync(OUT, { recursive: true, force: true });

await build({
  entryPoints: { taskdown: 'src/cli/main.ts' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outdir: OUT,
  chunkNames: 'chunk-[hash]',
  sourcemap: 'linked',
  // swagger-ui-dist is a folder of static files served as they are, not code to bundle.
  external: ['swagger-ui-dist'],
  // Bundled CommonJS dependencies call require(); give the ESM bundle one.
  banner: {
    js: "import { createRequire as __taskdownRequire } from 'node:module';\nconst require = __taskdownRequire(import.meta.url);",
  },
  legalComments: 'none',
  logLevel: 'warning',
});
chmodSync(`${OUT}/taskdown.js`, 0o755);
