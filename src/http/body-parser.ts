/**
 * Request bodies: every body is JSON text, whatever its Content-Type (clients send JSON with or
 * without one), limited to 1 MiB and BODY_MAX_DEPTH levels of nesting, its text valid Unicode
 * (well-formed.ts); a POST or PUT without a body is an empty object, as in the reference.
 */
import type { FastifyInstance } from 'fastify';
import { nestedDeeperThan } from '../core/nesting-depth.js';
import { hasUnpairedSurrogate, NOT_UNICODE } from '../core/well-formed.js';
import { BodyError } from './http-error.js';

export const BODY_LIMIT = 1024 * 1024;
/**
 * Deepest JSON body accepted. The deepest legitimate body, a FilterQuery at its limit of 32 nested
 * groups, is about 66 levels; a deeper body would only make validators, YAML and JSON writers
 * recurse until the stack overflows (a 500).
 */
export const BODY_MAX_DEPTH = 100;

export function installBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => {
    const text = body as string;
    if (text.length === 0) return done(null, {});
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      done(new BodyError(400, 'Invalid JSON'), undefined);
      return;
    }
    if (nestedDeeperThan(parsed, BODY_MAX_DEPTH)) {
      done(
        new BodyError(400, `Request body is nested too deeply (at most ${BODY_MAX_DEPTH} levels)`),
        undefined,
      );
      return;
    }
    if (hasUnpairedSurrogate(parsed)) {
      done(new BodyError(400, NOT_UNICODE), undefined);
      return;
    }
    done(null, parsed);
  });

  app.addHook('preValidation', (req, _reply, done) => {
    if (req.body === undefined && (req.method === 'POST' || req.method === 'PUT' || req.method === 'PATCH')) {
      req.body = {};
    }
    done();
  });
}
