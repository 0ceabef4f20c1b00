/**
 * Bearer-token auth: when a token is configured, every request to a route not declared public
 * (and every request that matches no route) must carry it. Wrong tokens count towards the
 * client's lockout (auth-lockout.ts).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../http-error.js';
import type { AuthLockout } from './auth-lockout.js';

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/** `Bearer <token>`; the scheme's name in any case, as HTTP's authentication schemes are. */
const BEARER = /^bearer +/i;

/** Constant-time token check: comparing fixed-length digests hides both content and length. */
export function tokenMatches(header: string | undefined, token: string): boolean {
  const scheme = BEARER.exec(header ?? '');
  if (!header || !scheme) return false;
  return timingSafeEqual(digest(header.slice(scheme[0].length)), digest(token));
}

export function authGate(
  req: FastifyRequest,
  reply: FastifyReply,
  token: string | null,
  lockout: AuthLockout,
): void {
  if (!token) return;
  const header = req.headers.authorization;
  const wait = lockout.retryAfter(req.ip);
  if (wait > 0) {
    reply.header('Retry-After', String(wait));
    throw new HttpError(429, 'Too many failed authentication attempts; retry later');
  }
  if (tokenMatches(header, token)) {
    lockout.recordSuccess(req.ip);
    return;
  }
  if (header !== undefined) lockout.recordFailure(req.ip, req.log);
  throw new HttpError(401, 'Authentication required');
}
