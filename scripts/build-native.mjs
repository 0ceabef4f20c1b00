// Builds native/rename-exchange (the swap a note write uses so that no other program's save is
// ever replaced: docs/vault-safety.md) with node-gyp, as npm's `install` step of Taskdown.
// It is a Node-API addon: one build serves every Node version. Without it Taskdown still runs and
// writes notes safely, with a window of two system calls left (the same docs), so a failed build
// (no compiler, an unsupported system) prints one line and does not fail the installation.
// `npm run build:native` runs it again.
import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIR = path.join(ROOT, 'native', 'rename-exchange');
const ADDON = path.join(DIR, 'build', 'Release', 'rename_exchange.node');
const WHY = 'notes are written without it (docs/vault-safety.md, "External edits")';

// Only Linux and macOS can swap two paths in one step.
if (!['linux', 'darwin'].includes(process.platform)) process.exit(0);

/** The prefix of the Node that runs this (its real path: npm's `node` package links to it). */
const NODE_PREFIX = path.resolve(path.dirname(realpathSync(process.execPath)), '..');

/** The node-gyp of the npm first on PATH (whose script links into its package), if any. */
function npmOnPath() {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const npm = path.join(dir, 'npm');
    if (!dir || !existsSync(npm)) continue;
    return path.join(path.dirname(realpathSync(npm)), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
  }
  return undefined;
}

/**
 * node-gyp as npm runs it for install scripts; else the copy of npm beside this Node, or of the
 * npm on PATH; else a node-gyp on PATH.
 */
function nodeGyp() {
  const beside = path.join(
    NODE_PREFIX,
    'lib',
    'node_modules',
    'npm',
    'node_modules',
    'node-gyp',
    'bin',
    'node-gyp.js',
  );
  const script = [process.env.npm_config_node_gyp, beside, npmOnPath()].find(
    (file) => file && existsSync(file),
  );
  return script ? [process.execPath, [script]] : ['node-gyp', []];
}

/**
 * The headers of the Node that runs this, when its installation has them (official builds do, and
 * so does the npm registry's `node` package, in its platform package): node-gyp would otherwise
 * download them, which fails offline. npm's `nodedir` setting wins.
 */
function ownHeaders() {
  if (process.env.npm_config_nodedir) return [];
  const platformPackage = path.join(NODE_PREFIX, 'node_modules', `node-${process.platform}-${process.arch}`);
  const dir = [NODE_PREFIX, platformPackage].find((d) =>
    existsSync(path.join(d, 'include', 'node', 'node_api.h')),
  );
  return dir ? [`--nodedir=${dir}`] : [];
}

/** What went wrong, in one line: the compiler's first error, or node-gyp's error message. */
function reasonOf(result) {
  if (result.error) return result.error.code === 'ENOENT' ? 'node-gyp not found' : result.error.message;
  const lines = (result.stderr ?? '').split('\n');
  const compiler = lines.find((line) => /\berror\b/i.test(line) && !line.startsWith('gyp'));
  const start = lines.findIndex((line) => line.startsWith('gyp ERR! stack Error:'));
  const gyp = [];
  for (let i = start; start >= 0 && i < lines.length && !/^gyp ERR! stack\s+at /.test(lines[i]); i++) {
    gyp.push(lines[i].replace(/^gyp ERR! stack (Error: )?/, '').trim());
  }
  const reason = compiler?.trim() || gyp.join(' ') || 'node-gyp failed';
  return reason.length > 240 ? `${reason.slice(0, 239)}…` : reason;
}

const [command, args] = nodeGyp();
const result = spawnSync(command, [...args, 'rebuild', ...ownHeaders()], { cwd: DIR, encoding: 'utf8' });
if (result.status !== 0) {
  console.warn(`taskdown: the rename-exchange addon could not be built (${reasonOf(result)}); ${WHY}`);
  process.exit(0);
}
try {
  createRequire(import.meta.url)(ADDON);
} catch (err) {
  console.warn(`taskdown: the rename-exchange addon was built but does not load (${err.message}); ${WHY}`);
}
