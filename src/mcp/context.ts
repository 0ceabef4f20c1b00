/**
 * What MCP tools receive: the services the HTTP routes use, and nothing else (no store, no event
 * bus, no vault files). A tool is an adapter like a route: it turns arguments into one service
 * call and the result into a tool answer.
 */
import type { Logger } from '../core/logger.js';
import type { Services } from '../services.js';

export type McpServices = Pick<
  Services,
  'vaultInfo' | 'tasks' | 'queries' | 'recurrence' | 'time' | 'pomodoro' | 'calendars' | 'nlp' | 'webhooks'
>;

export interface McpContext {
  services: McpServices;
  log: Logger;
  /**
   * Runs a tool's change, failing it (UNAVAILABLE) when events were lost meanwhile: the journal's
   * `recording`, the one rule for HTTP routes and tools.
   */
  recording<T>(work: () => Promise<T>): Promise<T>;
}
