// Runs every *.test.ts under test/ and src/ with Node's built-in test runner (TypeScript through
// tsx). Pass file or folder paths to run a subset: `npm test -- test/http`.
//
// Node's runner gives every file a process of its own, and most of that process goes to starting
// Node and tsx: 0.6-0.9 s of CPU, more than many files' tests take (an integration file that starts
// the built server twice takes 2-3 s in all). So most files share SHARDS processes, one entry file
// each that imports them; top-level tests in one process run one after another. A file keeps a
// process of its own when it is long or spends its time waiting (Chromium, the packed package's
// install, child processes that are killed, real-time delivery retries: ORDER, longest first), so
// that it runs beside the CPU-bound shards instead of holding one up, or when it sets process.env
// as it loads (a time zone, say), which would hold for its neighbours too.
//
// The runner starts files in the order of their names, not of its arguments: each process gets an
// entry file whose name starts with its place in ORDER, so the long ones start first and none
// starts last. Whole runs on the 2-core development machine (Node 20.20): 159 s with unit files
// shared and the rest in path order, 143-150 s with the integration files shared as well and the
// long ones started first.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { clearTimeout, setTimeout } from 'node:timers';
import { pathToFileURL } from 'node:url';

function collect(target, out) {
  const stat = statSync(target);
  if (stat.isFile()) {
    if (/\.test\.(ts|mts|js|mjs)$/.test(target)) out.push(target);
    return out;
  }
  for (const entry of readdirSync(target)) {
    if (entry === 'node_modules' || entry.startsWith('.')) continue;
    collect(path.join(target, entry), out);
  }
  return out;
}

const targets = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const flags = process.argv.slice(2).filter((a) => a.startsWith('--'));
const files = (targets.length > 0 ? targets : ['test', 'src']).flatMap((t) => collect(t, [])).sort();
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
const SHARDS = 6;
/** A file's path from the working folder, with `/` between folders on every system. */
const relPath = (file) => path.relative(process.cwd(), path.resolve(file)).split(path.sep).join('/');
// Files with a process of their own, in the order they start; `SHARDS` marks where the shared
// processes start. A long file missing from the list only shares a process (a longer shard);
// nothing depends on the order.
const ORDER = [
  'test/integration/settings-page.test.ts',
  'test/integration/package.test.ts',
  'test/integration/mcp-forward.test.ts',
  'SHARDS',
  'test/integration/cli.test.ts',
  'test/integration/crash-loop.test.ts',
  'test/integration/docs.test.ts',
  'test/integration/hostile-input.test.ts',
  'test/integration/external-edits.test.ts',
  'test/integration/webhooks-durable.test.ts',
  'test/integration/webhooks-delivery.test.ts',
  'test/integration/webhooks-flapping.test.ts',
  'test/integration/gates.test.ts',
  'test/integration/pomodoro.test.ts',
  'test/integration/webhooks-events.test.ts',
  'test/integration/vault-gone.test.ts',
  'test/integration/reminders.test.ts',
];
const setsEnv = (file) => /^process\.env\./m.test(readFileSync(file, 'utf8'));
const alone = new Map(ORDER.map((name) => [name, []]));
const shared = [];
for (const file of files) {
  if (alone.has(relPath(file))) alone.get(relPath(file)).push(file);
  // Its own process, started after the shards.
  else if (setsEnv(file)) alone.get('SHARDS').push(file);
  else shared.push(file);
}
const shards = Array.from({ length: Math.min(SHARDS, shared.length) }, () => []);
// Every shard takes every k-th file, so the large folders spread over all of them.
shared.forEach((file, i) => shards[i % shards.length].push(file));
const groups = [];
for (const [name, own] of alone) {
  if (name === 'SHARDS')
    groups.push(
      ...shards.filter((s) => s.length > 0).map((s, k) => ({ label: `shared-${k + 1}`, files: s })),
    );
  groups.push(
    ...own.map((file) => ({ label: path.basename(file).replace(/\.test\.\w+$/, ''), files: [file] })),
  );
}
const dir = mkdtempSync(path.join(os.tmpdir(), 'taskdown-tests-'));
process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
const entries = groups.map((group, i) => {
  const entry = path.join(dir, `${String(i).padStart(3, '0')}-${group.label}.test.mjs`);
  writeFileSync(
    entry,
    group.files.map((file) => `import ${JSON.stringify(pathToFileURL(path.resolve(file)).href)};\n`).join(''),
  );
  return entry;
});

// The whole run is bounded instead of each file being force-exited (`--test-force-exit`, which on
// Node 20 can drop the reports of a file's last tests): a test file whose open handles kept it
// alive would otherwise stall CI.
const RUN_LIMIT_MS = Number(process.env.TEST_RUN_LIMIT_MS ?? 15 * 60_000);
const child = spawn(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    '--test-reporter=spec',
    `--test-concurrency=${process.env.TEST_CONCURRENCY ?? 3}`,
    // A hung test fails after two minutes.
    '--test-timeout=120000',
    ...flags,
    ...entries,
  ],
  { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } },
);
const limit = setTimeout(() => {
  console.error(`test run exceeded ${RUN_LIMIT_MS / 60_000} minutes (a test file kept running): stopping it`);
  child.kill('SIGKILL');
}, RUN_LIMIT_MS);
child.on('exit', (code, signal) => {
  clearTimeout(limit);
  process.exit(code ?? (signal ? 1 : 0));
});
