// The plain-YAML reader's gain, in a fresh Node process: reads the frontmatter block of every note
// of a vault into memory, then parses all of them in one cold pass (as a first start does) and
// prints the pass's CPU time. `taskdown` parses as the server does (the plain-YAML reader of
// dist/src, js-yaml for the rest); `js-yaml` as the server would without that reader (js-yaml,
// then a structured clone so that no value keeps the note text alive).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const [root, mode] = process.argv.slice(2);
const { readPlainYaml } = await import('../../dist/src/core/tasks/plain-yaml.js');
const { readYamlFull } = await import('../../dist/src/core/tasks/note-format.js');
const full = (yaml) => globalThis.structuredClone(readYamlFull(yaml));
const parse = mode === 'taskdown' ? (yaml) => readPlainYaml(yaml) ?? full(yaml) : full;

const blocks = [];
function walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const abs = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(abs);
    else if (entry.name.endsWith('.md')) {
      const m = /^---\r?\n([\s\S]*?)\r?\n---/.exec(readFileSync(abs, 'utf8'));
      if (m) blocks.push(m[1]);
    }
  }
}
walk(root);
// Kept, as the index keeps them: what survives is part of the cost (garbage collection).
const kept = new Array(blocks.length);
const start = process.cpuUsage();
for (let i = 0; i < blocks.length; i++) kept[i] = parse(blocks[i]);
const cpu = process.cpuUsage(start);
process.stdout.write(`parsed ${kept.length} cpu ${Math.round((cpu.user + cpu.system) / 1000)}\n`);
