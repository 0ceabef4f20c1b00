// Runs every *.test.ts under test/ and src/ with Node's built-in test runner (TypeScript through
// tsx). Pass file or folder paths to run a subset: `npm test -- test/http`.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

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
const result = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    '--test-reporter=spec',
    `--test-concurrency=${process.env.TEST_CONCURRENCY ?? 3}`,
    // A hung test fails after two minutes instead of stalling CI; open handles never keep a
    // finished test file alive.
    '--test-timeout=120000',
    '--test-force-exit',
    ...flags,
    ...files,
  ],
  { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } },
);
process.exit(result.status ?? 1);
