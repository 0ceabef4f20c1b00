/**
 * The request gates that run before routing, in this order (SPEC §3):
 *   1. CORS: an Origin header must be a loopback origin or the server's own origin, else 403;
 *   2. OPTIONS preflight: answered here, without auth;
 *   3. auth: a bearer token on every protected path when a token is configured (constant time);
 *   4. the API-enabled switch: `/api/*` answers 503 while the HTTP API is off.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from './http-error.js';

const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);
const ALLOW_METHODS = 'GET, POST, PUT, DELETE, OPTIONS';
const ALLOW_HEADERS = 'Content-Type, Authorization, If-Match';

/** Paths that need the token when one is set: the API and the settings page's own backend. */
export function isProtectedPath(pathname: string): boolean {
  return pathname.startsWith('/api/') || pathname === '/api' || pathname.startsWith('/settings-api/');
}

function allowedOrigin(origin: string, hostHeader: string | undefined): string | null {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (LOOPBACK_HOSTNAMES.has(url.hostname)) return url.origin;
  // A page served by this server (the settings page on a LAN address) is same-origin, not CORS.
  if (hostHeader && url.host === hostHeader.toLowerCase()) return url.origin;
  return null;
}

export function corsGate(req: FastifyRequest, reply: FastifyReply): void {
  const origin = req.headers.origin;
  if (origin === undefined) return;
  const allowed = allowedOrigin(origin, req.headers.host);
  if (!allowed) throw new HttpError(403, 'CORS origin is not allowed');
  reply.header('Access-Control-Allow-Origin', allowed);
  reply.header('Vary', 'Origin');
  reply.header('Access-Control-Allow-Methods', ALLOW_METHODS);
  reply.header('Access-Control-Allow-Headers', ALLOW_HEADERS);
  reply.header('Access-Control-Expose-Headers', 'ETag, X-Request-Id');
}

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/** Constant-time token check: comparing fixed-length digests hides both content and length. */
export function tokenMatches(header: string | undefined, token: string): boolean {
  if (!header?.startsWith('Bearer ')) return false;
  return timingSafeEqual(digest(header.slice(7)), digest(token));
}

export function authGate(req: FastifyRequest, token: string | null): void {
  if (!token) return;
  if (!tokenMatches(req.headers.authorization, token)) throw new HttpError(401, 'Authentication required');
}

export function preflight(reply: FastifyReply): void {
  reply.header('Access-Control-Max-Age', '600');
  void reply.code(204).send();
}
