/**
 * `taskdown serve`: starts the server, prints the listening line once, and stops cleanly on
 * SIGINT and SIGTERM. Loaded by main.ts only once the command is known (see there).
 */
import { startServer, type RunningServer } from '../app.js';
import type { ServerConfig } from '../config/config.js';
import type { NotePrefetch } from '../core/vault/note-prefetch.js';
import { checkExposure, UsageError } from './args.js';
import { fail } from './fail.js';
import { describeStartError } from './start-error.js';

export async function serve(config: ServerConfig, prefetch: NotePrefetch): Promise<void> {
  let server: RunningServer;
  try {
    server = await startServer(config, {
      beforeListen: (services) =>
        checkExposure(config.host, config.token ?? services.settings.get().apiToken),
      prefetch,
    });
  } catch (err) {
    if (err instanceof UsageError) fail(err.message, 2);
    fail(describeStartError(err, config.dataDir), 1);
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
