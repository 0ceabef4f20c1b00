/** Bearer-token auth: when a token is configured, a protected request must carry it. */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../http-error.js';

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
