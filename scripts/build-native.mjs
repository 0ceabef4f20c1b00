// Builds native/rename-exchange (the swap a note write uses so that no other program's save is
// ever replaced: docs/vault-safety.md) with node-gyp, as npm's `install` step of Taskdown.
// It is a Node-API addon: one build serves every Node version. Without it Taskdown still runs and
// writes notes safely, with a window of two system calls left (the same docs), so a failed build
// (no compiler, an unsupported system) prints one line and does not fail the installation.
// `npm run build:native` runs it again.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIR = path.join(ROOT, 'native', 'rename-exchange');
const ADDON = path.join(DIR, 'build', 'Release', 'rename_exchange.node');
const WHY = 'notes are written without it (docs/vault-safety.md, "External edits")';

// Only Linux and macOS can swap two paths in one step.
if (!['linux', 'darwin'].includes(process.platform)) process.exit(0);

/** node-gyp as npm runs it for install scripts; else npm's own copy beside this Node; else PATH. */
function nodeGyp() {
  const candidates = [
    process.env.npm_config_node_gyp,
    path.join(
      path.dirname(process.execPath),
      '..',
      'lib',
      'node_modules',
      'npm',
      'node_modules',
      'node-gyp',
      'bin',
      'node-gyp.js',
    ),
  ];
  const script = candidates.find((file) => file && existsSync(file));
  return script ? [process.execPath, [script]] : ['node-gyp', []];
}

const [command, args] = nodeGyp();
const result = spawnSync(command, [...args, 'rebuild'], { cwd: DIR, encoding: 'utf8' });
if (result.status !== 0) {
  const output = `${result.error?.message ?? ''}\n${result.stderr ?? ''}`.trim().split('\n');
  const reason = output.filter((line) => /error|not found|ENOENT/i.test(line)).at(-1) ?? output.at(-1);
  console.warn(
    `taskdown: the rename-exchange addon could not be built (${reason?.trim() || 'node-gyp failed'}); ${WHY}`,
  );
  process.exit(0);
}
try {
  createRequire(import.meta.url)(ADDON);
} catch (err) {
  console.warn(`taskdown: the rename-exchange addon was built but does not load (${err.message}); ${WHY}`);
}
