/**
 * Request bodies: every body is JSON text, whatever its Content-Type (clients send JSON with or
 * without one), limited to 1 MiB; a POST or PUT without a body is an empty object, as in the
 * reference.
 */
import type { FastifyInstance } from 'fastify';
import { HttpError } from './http-error.js';

export const BODY_LIMIT = 1024 * 1024;

export function installBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => {
    const text = body as string;
    if (text.length === 0) return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new HttpError(400, 'Invalid JSON'), undefined);
    }
  });

  app.addHook('preValidation', (req, _reply, done) => {
    if (req.body === undefined && (req.method === 'POST' || req.method === 'PUT')) req.body = {};
    done();
  });
}
