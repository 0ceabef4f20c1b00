/**
 * CORS: a request with an Origin header is answered only for a loopback origin or the server's
 * own origin (a page served by this server, e.g. the settings page on a LAN address, is
 * same-origin, not CORS); others get 403. Preflights are answered before auth.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../http-error.js';

const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);
const ALLOW_METHODS = 'GET, POST, PUT, DELETE, OPTIONS';
const ALLOW_HEADERS = 'Content-Type, Authorization, If-Match, If-None-Match';

function allowedOrigin(origin: string, hostHeader: string | undefined): string | null {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (LOOPBACK_HOSTNAMES.has(url.hostname)) return url.origin;
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

export function preflight(reply: FastifyReply): void {
  reply.header('Access-Control-Max-Age', '600');
  void reply.code(204).send();
}
