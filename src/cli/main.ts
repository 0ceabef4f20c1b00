/**
 * `taskdown` entry point (bundled into dist/bin/server.cjs; the executable is launcher.ts). Every failure ends with one line on stderr and a non-zero exit:
 * 2 for usage and configuration errors, 1 for runtime failures (port in use, unusable state).
 */
import { existsSync } from 'node:fs';
import { startServer, type RunningServer } from '../app.js';
import { DataDirLockedError } from '../core/state/instance-lock.js';
import { StateFileError } from '../core/state/json-file.js';
import { VERSION } from '../version.js';
import { checkExposure, HELP, parseCommand, UsageError } from './args.js';
import { runCheck } from './check.js';
import { createDemoVault } from './demo-vault.js';
import { runMcp } from './mcp.js';

function fail(message: string, code: number): never {
  process.stderr.write(`taskdown: ${message}\n`);
  process.exit(code);
}

function describeStartError(err: unknown): string {
  const e = err as NodeJS.ErrnoException & { address?: string; port?: number };
  if (e.code === 'EADDRINUSE')
    return `port ${e.port ?? ''} is already in use on ${e.address ?? 'that address'}`.replace('  ', ' ');
  if (e.code === 'EADDRNOTAVAIL')
    return `cannot bind address ${e.address ?? ''}: not available on this machine`;
  if (e.code === 'EACCES') return `permission denied: ${e.message}`;
  if (err instanceof StateFileError || err instanceof DataDirLockedError) return err.message;
  return e.message ?? String(err);
}

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
    try {
      await runMcp(config);
    } catch (err) {
      fail(describeStartError(err), 1);
    }
    return;
  }
  if (command.createDemo && !existsSync(config.vault)) {
    await createDemoVault(config.vault);
    process.stderr.write(`taskdown: created demo vault at ${config.vault}\n`);
  }

  let server: RunningServer;
  try {
    server = await startServer(config, {
      beforeListen: (services) =>
        checkExposure(config.host, config.token ?? services.settings.get().apiToken),
    });
  } catch (err) {
    if (err instanceof UsageError) fail(err.message, 2);
    fail(describeStartError(err), 1);
  }
  process.stdout.write(`taskdown listening on ${server.url}\n`);

  let stopping = false;
  const shutdown = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    server.http.log.info({ signal }, 'shutting down');
    server.close().then(
      () => process.exit(0),
      (err: unknown) => fail(`shutdown failed: ${(err as Error).message}`, 1),
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((err: unknown) => fail((err as Error).message ?? String(err), 1));
