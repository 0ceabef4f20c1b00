// Runs every *.test.ts under test/ and src/ with Node's built-in test runner (TypeScript through
// tsx). Pass file or folder paths to run a subset: `npm test -- test/http`.
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { clearTimeout, setTimeout } from 'node:timers';

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
    ...files,
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
