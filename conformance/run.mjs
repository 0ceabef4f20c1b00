// Standalone conformance run: `node conformance/run.mjs` (after `npm run build`), or
// `node --import tsx conformance/run.mjs` against the TypeScript source. Prints the per-file
// table and every non-waived failure; exits 1 when any non-waived case fails.
// Flags: --verbose lists waived failures too; --file=<name.json> runs one fixture file.
import { performance } from 'node:perf_hooks';
import { execute } from './adapter.mjs';
import { formatTable, loadSuite, runSuite } from './lib/suite.mjs';

const verbose = process.argv.includes('--verbose');
const only = process.argv.find((a) => a.startsWith('--file='))?.slice('--file='.length);
const suite = loadSuite().filter((entry) => !only || entry.file === only);
const started = performance.now();
const { claim, files } = await runSuite({ execute }, { suite });
const elapsed = Math.round(performance.now() - started);

console.log(
  `${claim.implementation} ${claim.version} — spec ${claim.spec_version}; profiles: ${claim.profiles.join(', ')}`,
);
console.log(`capabilities: ${claim.capabilities.join(', ')}\n`);
for (const line of formatTable(files)) console.log(line);
console.log(`\n${elapsed} ms`);
let failed = 0;
for (const file of files) {
  for (const failure of file.failures) {
    if (failure.waived && !verbose) continue;
    if (!failure.waived) failed += 1;
    console.log(
      `${failure.waived ? 'WAIVED' : 'FAIL'} ${failure.id} (${failure.operation}): ${failure.message}`,
    );
  }
}
process.exit(failed > 0 ? 1 : 0);
