/**
 * The server in the test's own process (src/app.ts startServer) on a temp vault and a real port,
 * for route tests whose subject is time: pomodoro sessions, reminders. They run on a ManualClock
 * (manual-clock.ts), so a 25-minute session takes no time at all and every due time is exact;
 * a few end-to-end tests of the same features stay on the built executable (server-process.ts),
 * on the system clock. Requests go through the same JSON client as there.
 */
import { startServer, type RunningServer } from '../../src/app.js';
import type { ServerConfig } from '../../src/config/config.js';
import type { Clock } from '../../src/core/clock.js';
import type { Store } from '../../src/core/store/database.js';
import { DEFAULT_RETENTION } from '../../src/core/store/event-journal.js';
import { jsonRequest, type TestServer } from './server-process.js';
import { tempDir, writeFiles } from './temp.js';

/** A server on the loopback address and a free port, no token, silent logs: what in-process tests run. */
export function localConfig(
  vault: string,
  dataDir: string,
  overrides: Partial<ServerConfig> = {},
): ServerConfig {
  return {
    vault,
    dataDir,
    host: '127.0.0.1',
    port: 0,
    token: null,
    logLevel: 'silent',
    webhookTimeoutMs: 15_000,
    webhookAllowPrivate: false,
    retention: DEFAULT_RETENTION,
    ...overrides,
  };
}

export interface InProcessServer {
  url: string;
  vault: string;
  dataDir: string;
  running: RunningServer;
  request: TestServer['request'];
  /** Closes the server (state persisted, as on SIGTERM) and starts a new one on the same folders. */
  restart(beforeStart?: () => Promise<void>): Promise<void>;
  /** Closes the server and removes its temp folders. */
  cleanup(): Promise<void>;
}

export async function startInProcessServer(options: {
  clock: Clock;
  files?: Record<string, string>;
}): Promise<InProcessServer> {
  const vault = await tempDir('taskdown-vault-');
  const data = await tempDir('taskdown-data-');
  if (options.files) await writeFiles(vault.dir, options.files);
  const config = localConfig(vault.dir, data.dir);
  let running = await startServer(config, { clock: options.clock });
  let closed = false;
  const server: InProcessServer = {
    get url() {
      return running.url;
    },
    vault: vault.dir,
    dataDir: data.dir,
    get running() {
      return running;
    },
    request: (method, pathname, body, headers) => jsonRequest(running.url, method, pathname, body, headers),
    async restart(beforeStart) {
      await running.close();
      await beforeStart?.();
      running = await startServer(config, { clock: options.clock });
    },
    async cleanup() {
      if (!closed) await running.close();
      closed = true;
      await vault.cleanup();
      await data.cleanup();
    },
  };
  return server;
}

/**
 * Makes the store's next commit fail, as a full disk does (`SQLITE_FULL`). The store is the
 * journal's own (the services hand out no store), reached the one way tests need it.
 */
export function failNextCommit(server: InProcessServer): void {
  const { store } = server.running.services.journal as unknown as { store: Store };
  store.beforeCommit(() => {
    throw new Error('SQLITE_FULL: database or disk is full');
  });
}
