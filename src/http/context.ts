/** What every route handler receives besides its input: the domain services and the config. */
import type { ServerConfig } from '../config/config.js';
import type { Logger } from '../core/logger.js';
import type { Services } from '../services.js';
import type { EventStreamHub } from './sse/stream-hub.js';

export interface AppContext {
  services: Services;
  config: ServerConfig;
  /** The server's log (for adapters that are not routes' own handlers, e.g. MCP tools). */
  log: Logger;
  /** The open `GET /api/events` streams (ended first on shutdown). */
  streams: EventStreamHub;
  /** The address actually bound (port resolved when 0 was asked). */
  address(): { host: string; port: number };
  /** The generated OpenAPI document (paths from the route schemas). */
  openapi(): Record<string, unknown>;
}
