/**
 * The API-enabled switch (the settings page's "HTTP API" toggle): while it is off, `/api/*`
 * answers 503. The settings page's own backend stays reachable so the API can be switched on
 * again.
 */
import { HttpError } from '../http-error.js';

export function apiSwitchGate(pathname: string, apiEnabled: boolean): void {
  if (pathname.startsWith('/api') && !apiEnabled) throw new HttpError(503, 'HTTP API is disabled');
}
