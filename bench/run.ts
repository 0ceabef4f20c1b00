/**
 * `npm run bench`: runs every scenario in bench/scenarios (or those named on the command line,
 * e.g. `npm run bench -- webhooks`) and prints each figure beside its same-run baseline.
 * Exit code 1 when a target is missed, so the figures can gate a release.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { formatFigure, type Scenario } from './lib/report.js';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'scenarios');
const wanted = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.ts'))
  .filter((f) => wanted.length === 0 || wanted.includes(f.replace(/\.ts$/, '')))
  .sort();

let missed = 0;
for (const file of files) {
  const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as { default: Scenario };
  const scenario = mod.default;
  console.log(`\n${scenario.name}`);
  for (const figure of await scenario.run()) {
    console.log(formatFigure(figure));
    if (figure.pass === false) missed++;
  }
}
console.log(missed === 0 ? '\nall targets met' : `\n${missed} target(s) missed`);
process.exitCode = missed === 0 ? 0 : 1;
