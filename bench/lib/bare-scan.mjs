// Cold-start baseline: a bare loop that reads every Markdown file of a vault and YAML-parses its
// frontmatter, in a fresh Node process — the least any server must do before answering. It parses
// with js-yaml (YAML 1.2 core schema), the fastest general JavaScript YAML parser and the one the
// server falls back to. With `taskdown` as the second argument it parses with the server's own
// frontmatter reader instead (the plain-YAML fast path of dist/src, js-yaml for the rest), to show
// how much of the server's lead over the baseline is that reader.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import jsyaml from 'js-yaml';

const root = process.argv[2];
let parse = (yaml) => jsyaml.load(yaml, { schema: jsyaml.CORE_SCHEMA, json: true });
if (process.argv[3] === 'taskdown') {
  const { readPlainYaml } = await import('../../dist/src/core/tasks/plain-yaml.js');
  const { readYamlFull } = await import('../../dist/src/core/tasks/note-format.js');
  parse = (yaml) => readPlainYaml(yaml) ?? readYamlFull(yaml);
}

let parsed = 0;
function walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const abs = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(abs);
    else if (entry.name.endsWith('.md')) {
      const text = readFileSync(abs, 'utf8');
      const m = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
      if (m && parse(m[1])) parsed++;
    }
  }
}
walk(root);
const cpu = process.cpuUsage();
process.stdout.write(`parsed ${parsed} cpu ${Math.round((cpu.user + cpu.system) / 1000)}\n`);
