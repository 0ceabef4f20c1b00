/**
 * Starts a complete server: domain services plus the HTTP adapter, listening on the configured
 * address. Used by the CLI and by in-process tests and benchmarks.
 */
import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from './config/config.js';
import { systemClock, type Clock } from './core/clock.js';
import type { AppContext } from './http/context.js';
import { AuthLockout } from './http/gates/auth-lockout.js';
import { HostPolicy } from './http/gates/host.js';
import { allRoutes } from './http/routes/index.js';
import { buildHttpServer, listen } from './http/server.js';
import { installDocsUi } from './http/static/docs-ui.js';
import { installSettingsPage } from './http/static/settings-page.js';
import { EventStreamHub } from './http/sse/stream-hub.js';
import type { NotePrefetch } from './core/vault/note-prefetch.js';
import { createProcessLogger } from './process-logger.js';
import { createServices, type ServiceRuntime, type Services } from './services.js';

/** How long shutdown waits for in-flight requests before closing their connections. */
const DRAIN_LIMIT_MS = 10_000;

export interface RunningServer {
  url: string;
  host: string;
  port: number;
  http: FastifyInstance;
  services: Services;
  /** Stops accepting, lets in-flight requests finish, then persists state. */
  close(): Promise<void>;
}

export interface StartOptions {
  clock?: Clock;
  /** Runs after the services are up and before binding; a throw aborts the start. */
  beforeListen?: (services: Services) => void;
  /** A start's walk of the vault; for a large vault, its notes already being read or looked up on a second thread (note-prefetch.ts). */
  prefetch?: NotePrefetch;
}

export async function startServer(config: ServerConfig, options: StartOptions = {}): Promise<RunningServer> {
  const log = await createProcessLogger(config);
  let bound = { host: config.host, port: config.port };
  /** Filled in once the services are open and the HTTP server is built (see below). */
  const started: { runtime?: ServiceRuntime; streams?: EventStreamHub; http?: FastifyInstance } = {};
  /** The token requests need: the command line's, else the settings page's (none: null). */
  const tokenOf = (settings: { apiToken: string | null }): string | null => config.token ?? settings.apiToken;
  const notOpen = (): never => {
    throw new Error('the services are not open yet');
  };
  // Handlers reach the services when they handle a request, and no request arrives before the
  // server listens, which waits for the services.
  const ctx: AppContext = {
    get services() {
      return started.runtime?.services ?? notOpen();
    },
    config,
    log,
    get streams() {
      return started.streams ?? notOpen();
    },
    address: () => bound,
    openapi: () => (started.http as FastifyInstance).swagger() as unknown as Record<string, unknown>,
  };

  // The HTTP server is built and its plugins loaded while the services open: a large vault's scan
  // waits for the start's reader thread (note-prefetch.ts), and the main thread builds the server
  // meanwhile instead of after the scan (docs/performance.md).
  const opening = createServices({
    config,
    log,
    clock: options.clock,
    listenPort: () => (bound.port === 0 ? undefined : bound.port),
    ...(options.prefetch ? { prefetch: options.prefetch } : {}),
  });
  const building = buildHttpServer({
    ctx,
    routes: allRoutes,
    plugins: [installDocsUi, installSettingsPage],
    log,
    token: () => tokenOf(ctx.services.settings.get()),
    apiEnabled: () => ctx.services.settings.get().apiEnabled,
    hosts: new HostPolicy({ bindHost: config.host, allowedHosts: config.allowedHosts }),
    lockout: new AuthLockout({ now: () => (options.clock ?? systemClock).now() }),
  }).then(async (app) => {
    await app.ready();
    return app;
  });
  const [services, built] = await Promise.allSettled([opening, building]);
  if (services.status === 'rejected' || built.status === 'rejected') {
    if (built.status === 'fulfilled') await built.value.close().catch(() => {});
    if (services.status === 'fulfilled') await services.value.stop();
    else options.prefetch?.dispose();
    throw services.status === 'rejected' ? services.reason : (built as PromiseRejectedResult).reason;
  }
  const runtime = services.value;
  const http = built.value;
  started.runtime = runtime;
  started.http = http;
  const streams = (started.streams = new EventStreamHub({
    journal: runtime.services.journal,
    clock: runtime.services.clock,
    log,
  }));
  // An open stream passed the token and the API switch as they were when it opened: a new token
  // ends every stream, switching the API off the `/api` ones (a client that resumes with
  // Last-Event-ID under the new rules misses nothing).
  const unwatch = runtime.services.settings.onChange((next, previous) => {
    if (tokenOf(next) !== tokenOf(previous)) streams.finishAll();
    else if (previous.apiEnabled && !next.apiEnabled) streams.finishAll('api');
  });

  try {
    options.beforeListen?.(runtime.services);
    await listen(http, { host: config.host, port: config.port });
  } catch (err) {
    await http.close().catch(() => {});
    await runtime.stop();
    throw err;
  }
  const addr = http.server.address();
  if (addr && typeof addr === 'object') bound = { host: config.host, port: addr.port };
  const displayHost = bound.host.includes(':') ? `[${bound.host}]` : bound.host;
  const url = `http://${displayHost}:${bound.port}`;
  await runtime.listening(url);

  return {
    url,
    host: bound.host,
    port: bound.port,
    http,
    services: runtime.services,
    async close() {
      // Connections that were busy when close() began go idle only after their response; close
      // them as they do, or the keep-alive timeout (72 s) would hold the exit. In-flight requests
      // get up to DRAIN_LIMIT_MS before their connections are cut; those waiting on a calendar
      // feed or provider answer at once (interrupt), instead of holding the stop for that long.
      const server = http.server;
      runtime.interrupt();
      // Event streams never end by themselves: end them first, so their connections go idle.
      unwatch();
      streams.finishAll();
      const sweep = setInterval(() => server.closeIdleConnections(), 50);
      const limit = setTimeout(() => server.closeAllConnections(), DRAIN_LIMIT_MS);
      try {
        await http.close();
      } finally {
        clearInterval(sweep);
        clearTimeout(limit);
      }
      await runtime.stop();
    },
  };
}
