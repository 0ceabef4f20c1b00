/**
 * The request gates, run on every request before its handler, in this order:
 *   1. CORS: an Origin header must be a loopback origin or the server's own origin, else 403;
 *   2. OPTIONS preflight: answered here, without auth;
 *   3. auth: a bearer token on every protected path when a token is configured (constant time);
 *   4. the API-enabled switch: `/api/*` answers 503 while the HTTP API is off.
 */
import type { FastifyInstance } from 'fastify';
import { apiSwitchGate } from './api-switch.js';
import { isProtectedPath } from './area.js';
import { authGate } from './auth.js';
import { corsGate, preflight } from './cors.js';

export interface GateDeps {
  /** Effective bearer token, read per request so settings-page changes apply at once. */
  token: () => string | null;
  apiEnabled: () => boolean;
}

export function installGates(app: FastifyInstance, deps: GateDeps): void {
  // A callback-style hook: an async hook costs a promise and a microtask turn on every request.
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('X-Request-Id', req.id);
    try {
      corsGate(req, reply);
      if (req.method === 'OPTIONS') {
        preflight(reply);
        return;
      }
      const pathname = req.url.split('?', 1)[0] ?? '';
      if (isProtectedPath(pathname) && !req.routeOptions.config?.public) {
        authGate(req, deps.token());
        apiSwitchGate(pathname, deps.apiEnabled());
      }
    } catch (err) {
      done(err as Error);
      return;
    }
    done();
  });
}
