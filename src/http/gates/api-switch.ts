/**
 * The API-enabled switch (the settings page's "HTTP API" toggle): while it is off, every route of
 * the `api` area (`/api/*`, `/mcp`) answers 503. The settings page's own backend stays reachable
 * so the API can be switched on again.
 */
import { HttpError } from '../http-error.js';
import type { RouteArea } from './area.js';

export function apiSwitchGate(area: RouteArea | undefined, apiEnabled: boolean): void {
  if (area === 'api' && !apiEnabled) throw new HttpError(503, 'HTTP API is disabled');
}
