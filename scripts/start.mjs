// `npm start`: serve the demo vault (./vault, created with sample tasks when missing) on :8080.
// Builds first when dist/ is missing, so a fresh clone works with `npm install && npm start`.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

if (!existsSync('dist/bin/taskdown.js')) {
  const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const args = ['dist/bin/taskdown.js', 'serve', '--vault', 'vault', '--create-demo', ...process.argv.slice(2)];
const child = spawn(process.execPath, args, { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
