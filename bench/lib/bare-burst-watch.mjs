// Baseline of a burst: the least a watching server does. A non-recursive fs.watch on one folder;
// every event's file is read and its frontmatter YAML-parsed (js-yaml), at once. Usage:
//   bare-burst-watch.mjs <folder> write <count>    prints `all <t>` once <count> notes were read;
//   bare-burst-watch.mjs <folder> delete           prints `all <t>` once the folder is gone.
// Prints `ready` once watching; t in epoch ms (performance.timeOrigin + performance.now()).
import { existsSync, readFileSync, watch } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import jsyaml from 'js-yaml';

const [folder, mode, count] = process.argv.slice(2);
const now = () => performance.timeOrigin + performance.now();
const seen = new Set();
const watcher = watch(folder, (_event, name) => {
  if (mode === 'delete') {
    if (!existsSync(folder)) finish();
    return;
  }
  if (name === null || seen.has(name)) return;
  let text;
  try {
    text = readFileSync(path.join(folder, name), 'utf8');
  } catch {
    return;
  }
  const m = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  if (!m) return; // written only in part so far: the next event reads it again
  jsyaml.load(m[1], { schema: jsyaml.CORE_SCHEMA, json: true });
  seen.add(name);
  if (seen.size === Number(count)) finish();
});
watcher.on('error', () => finish());
let finished = false;
function finish() {
  if (finished) return;
  finished = true;
  process.stdout.write(`all ${now()}\n`);
  watcher.close();
}
process.stdout.write('ready\n');
