/**
 * `taskdown` entry point (bundled into dist/bin/server.cjs; the executable is launcher.ts). Every failure ends with one line on stderr and a non-zero exit:
 * 2 for usage and configuration errors, 1 for runtime failures (port in use, unusable state).
 *
 * Only the command line, the demo vault and the vault walk are loaded before the command is known;
 * each command's code is imported when it runs (the bundle evaluates it then: esbuild turns these
 * imports into lazy module initialisation). For `serve` that order lets a first start's notes be
 * read on a second thread while the main thread loads the server (note-prefetch.ts).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { INDEX_SNAPSHOT_FILE } from '../core/vault/index-snapshot.js';
import { prefetchNotes } from '../core/vault/vault-scan.js';
import { VERSION } from '../version.js';
import { HELP, parseCommand, UsageError } from './args.js';
import { createDemoVault } from './demo-vault.js';
import { fail } from './fail.js';

async function main(): Promise<void> {
  let command;
  try {
    command = parseCommand(process.argv.slice(2), process.env);
  } catch (err) {
    if (err instanceof UsageError) fail(err.message, 2);
    throw err;
  }
  if (command.kind === 'help') {
    process.stdout.write(HELP);
    return;
  }
  if (command.kind === 'version') {
    process.stdout.write(`${VERSION}\n`);
    return;
  }
  if (command.kind === 'check') {
    const { runCheck } = await import('./check.js');
    const code = await runCheck(
      command,
      (text) => process.stdout.write(text),
      (text) => process.stderr.write(text),
    );
    process.exitCode = code;
    return;
  }
  const { config } = command;
  if (command.kind === 'mcp') {
    const [{ runMcp }, { describeStartError }] = await Promise.all([
      import('./mcp.js'),
      import('./start-error.js'),
    ]);
    try {
      await runMcp(config);
    } catch (err) {
      fail(describeStartError(err, config.dataDir), 1);
    }
    return;
  }
  if (command.createDemo && !existsSync(config.vault)) {
    await createDemoVault(config.vault);
    process.stderr.write(`taskdown: created demo vault at ${config.vault}\n`);
  }
  // A first start reads every note, a restart looks every note up to compare it with the index
  // snapshot: either starts now, on a second thread, with the walk of the vault, while the server
  // loads.
  const restart = existsSync(path.join(config.dataDir, INDEX_SNAPSHOT_FILE));
  const prefetch = prefetchNotes({ root: config.vault, dataDir: config.dataDir }, restart ? 'stat' : 'read');
  if (process.env.TASKDOWN_LAUNCH_REPORT === '1') {
    void prefetch.walk().then((walk) => {
      const what = restart ? 'looking up' : 'reading';
      if (walk) process.stderr.write(`taskdown: ${what} ${walk.notes.length} notes on a second thread\n`);
    });
  }
  const { serve } = await import('./serve.js');
  await serve(config, prefetch);
}

main().catch((err: unknown) => fail((err as Error).message ?? String(err), 1));
