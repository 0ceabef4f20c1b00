/**
 * The request gates, run on every request (matched or not) before its body is read, in this order:
 *   1. Host: the Host header must name this server (host.ts), else 403 `Host not allowed`;
 *   2. CORS: a foreign Origin, or an unsafe cross-site request, is refused with 403 (cors.ts);
 *   3. OPTIONS preflight: answered here, without auth;
 *   4. auth: the bearer token on every route not declared public, and on unmatched paths, with a
 *      lockout of clients that keep sending wrong tokens (auth.ts, auth-lockout.ts);
 *   5. the API switch: routes of the `api` area answer 503 while the HTTP API is off.
 * Auth and the switch decide on the matched route's declared area (area.ts), not on the URL text.
 */
import type { FastifyInstance } from 'fastify';
import { apiSwitchGate } from './api-switch.js';
import { areaOf } from './area.js';
import { AuthLockout } from './auth-lockout.js';
import { authGate } from './auth.js';
import { corsGate, preflight } from './cors.js';
import { HostPolicy } from './host.js';

export interface GateDeps {
  /** Effective bearer token, read per request so settings-page changes apply at once. */
  token: () => string | null;
  apiEnabled: () => boolean;
  /** Host names the server answers to; loopback names only when omitted. */
  hosts?: HostPolicy;
  /** Wrong-token lockout; one on the system clock when omitted. */
  lockout?: AuthLockout;
}

export function installGates(app: FastifyInstance, deps: GateDeps): void {
  const hosts = deps.hosts ?? new HostPolicy({ bindHost: '127.0.0.1' });
  const lockout = deps.lockout ?? new AuthLockout({ now: Date.now });

  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, area: route.config?.area ?? areaOf(route.url) };
  });

  // A callback-style hook: an async hook costs a promise and a microtask turn on every request.
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('X-Request-Id', req.id);
    try {
      hosts.check(req.headers.host, req.log);
      corsGate(req, reply, hosts);
      if (req.method === 'OPTIONS') {
        preflight(reply);
        return;
      }
      const config = req.is404 ? undefined : req.routeOptions.config;
      if (config?.public !== true) authGate(req, reply, deps.token(), lockout);
      apiSwitchGate(config?.area, deps.apiEnabled());
    } catch (err) {
      done(err as Error);
      return;
    }
    done();
  });
}
