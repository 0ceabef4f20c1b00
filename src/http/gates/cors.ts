/**
 * CORS and cross-site requests. A request with an Origin header is answered only when the origin
 * is a loopback origin (any port), an `--allowed-hosts` name, or the server's own origin (a page
 * this server served, e.g. the settings page on a LAN address; the Host check has already
 * accepted that name). Others get 403 before any handler runs, so a cross-site form POST, whatever
 * its content type, changes nothing. A browser that sends no Origin but marks an unsafe request
 * `Sec-Fetch-Site: cross-site` is refused the same way. Preflights are answered before auth.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../http-error.js';
import type { HostPolicy } from './host.js';

const ALLOW_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
/**
 * Request headers a page may send: besides the API's own, the one an event stream read with
 * `fetch` resumes by (a page that sends a token cannot use `EventSource`), and the protocol
 * version an MCP client sends on every request after `initialize`.
 */
const ALLOW_HEADERS =
  'Content-Type, Authorization, If-Match, If-None-Match, Last-Event-ID, Mcp-Protocol-Version';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function allowedOrigin(origin: string, hostHeader: string | undefined, hosts: HostPolicy): string | null {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (hosts.isNamed(url.hostname)) return url.origin;
  if (hostHeader !== undefined && url.host === hostHeader.toLowerCase()) return url.origin;
  return null;
}

export function corsGate(req: FastifyRequest, reply: FastifyReply, hosts: HostPolicy): void {
  const origin = req.headers.origin;
  if (origin === undefined) {
    if (req.headers['sec-fetch-site'] === 'cross-site' && !SAFE_METHODS.has(req.method)) {
      throw new HttpError(403, 'CORS origin is not allowed');
    }
    return;
  }
  const allowed = allowedOrigin(origin, req.headers.host, hosts);
  if (!allowed) throw new HttpError(403, 'CORS origin is not allowed');
  reply.header('Access-Control-Allow-Origin', allowed);
  reply.header('Vary', 'Origin');
  reply.header('Access-Control-Allow-Methods', ALLOW_METHODS);
  reply.header('Access-Control-Allow-Headers', ALLOW_HEADERS);
  reply.header('Access-Control-Expose-Headers', 'ETag, X-Request-Id, Retry-After');
}

export function preflight(reply: FastifyReply): void {
  reply.header('Access-Control-Max-Age', '600');
  void reply.code(204).send();
}
