// Cold-start baseline: a bare loop that reads every Markdown file of a vault and YAML-parses its
// frontmatter, in a fresh Node process — the least any server must do before answering. It uses
// the parser the server reads notes with (js-yaml, YAML 1.2 core schema), so the figure is the
// floor for this server, not for a slower or faster parser.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import jsyaml from 'js-yaml';

const parse = (yaml) => jsyaml.load(yaml, { schema: jsyaml.CORE_SCHEMA, json: true });

const root = process.argv[2];
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
