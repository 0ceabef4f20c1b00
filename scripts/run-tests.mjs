// Runs every *.test.ts under test/ and src/ with Node's built-in test runner (TypeScript through
// tsx). Pass file or folder paths to run a subset: `npm test -- test/http`.
//
// The runner gives every file a process of its own. A unit test file spends most of that process
// starting Node and tsx: 0.6-0.9 s of CPU for tests that take a few ms. Those files share UNIT_SHARDS
// processes instead, one entry file each that imports them, started before the other files (a
// long entry started last ends the run late). Files that keep a process of their own: everything
// under test/integration and test/web (servers, browsers, child processes, real time), and any
// file that sets process.env when it loads (a time zone, say), which would hold for its
// neighbours too. Measured on the 2-core development machine (Node 20.20, whole run): 180 s one
// process per file, 173 s shared, 146 s shared and started first.
//
// For the same reason the longest files of their own start right after the shards (LONGEST_FIRST,
// each 13-48 s in CI's logs: packing and installing the package, Chromium, the command line's
// child processes, the kill -9 and external-edit runs); the others follow in path order. Two
// alternating whole runs each (Node 20.20): 170 and 166 s in path order, 152 and 151 s with these
// first. A file missing from the list only starts later; nothing depends on the order.
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
const UNIT_SHARDS = 3;
/** A file's path from the working folder, with `/` between folders on every system. */
const relPath = (file) => path.relative(process.cwd(), path.resolve(file)).split(path.sep).join('/');
const ownProcess = (file) =>
  /^test\/(integration|web)\//.test(relPath(file)) || /^process\.env\./m.test(readFileSync(file, 'utf8'));
const LONGEST_FIRST = [
  'test/integration/package.test.ts',
  'test/web/',
  'test/integration/cli.test.ts',
  'test/integration/external-edits.test.ts',
  'test/integration/crash-loop.test.ts',
  'test/integration/docs.test.ts',
];
const rank = (file) => {
  const i = LONGEST_FIRST.findIndex((start) => relPath(file).startsWith(start));
  return i === -1 ? LONGEST_FIRST.length : i;
};
// Array.prototype.sort is stable: within a rank, path order stays.
const alone = files.filter(ownProcess).sort((a, b) => rank(a) - rank(b));
const shared = files.filter((file) => !ownProcess(file));
const entries = [];
if (shared.length > 1) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'taskdown-unit-tests-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const shards = Math.min(UNIT_SHARDS, shared.length);
  for (let k = 0; k < shards; k++) {
    // Every shard takes every k-th file, so the large folders spread over all of them.
    const imports = shared
      .filter((_, i) => i % shards === k)
      .map((file) => `import ${JSON.stringify(pathToFileURL(path.resolve(file)).href)};\n`);
    const entry = path.join(dir, `unit-${k + 1}.test.mjs`);
    writeFileSync(entry, imports.join(''));
    entries.push(entry);
  }
} else {
  entries.push(...shared);
}
entries.push(...alone);

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
