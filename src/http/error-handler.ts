/**
 * The one mapping from a thrown error to an error envelope: HttpError and DomainError carry their
 * status and message, schema failures become 400 with a readable message, an oversized body 413;
 * anything else is 500 `Internal server error` with the details in the log only. Unknown routes
 * and methods answer 404 `Not found`. `/mcp` answers a body it cannot read in JSON-RPC's form.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import { isDomainError } from '../core/errors.js';
import { errorBody } from './envelope.js';
import { BodyError, HttpError } from './http-error.js';
import { statusOf } from './status-of.js';
import { describeValidationError } from './validation.js';

const MCP_URL = '/mcp';

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | Error, req, reply) => {
    let status = 500;
    let message = 'Internal server error';
    let issues: unknown;
    const fe = err as FastifyError;
    if (err instanceof HttpError) {
      status = err.status;
      message = err.message;
    } else if (isDomainError(err)) {
      status = statusOf(err.code);
      message = err.message;
      if (err.code === 'PRECONDITION_FAILED' && err.details) {
        // A failed If-Match answers with the current task and its ETag, so the client can merge.
        const { task, etag } = err.details as { task: unknown; etag: string };
        void reply.code(status).header('ETag', etag).type('application/json');
        return reply.send(errorBody(message, { task }));
      }
      // A refused write lists every validation issue beside the message of the first.
      if (Array.isArray(err.details?.issues)) issues = err.details.issues;
    } else if (fe.validation) {
      status = 400;
      message = describeValidationError(fe.validation as never, fe.validationContext);
    } else if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      status = 413;
      message = 'Request body too large (limit 1 MiB)';
    } else if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
      status = fe.statusCode;
      message = fe.message;
    }
    // A domain error is a known condition (a feed or the vault folder unavailable), logged
    // where it arises; its message says all a stack trace would, once per request.
    if (status >= 500 && isDomainError(err)) req.log.warn({ reason: err.message }, 'request refused');
    else if (status >= 500) req.log.error({ err }, 'request failed');
    if (req.routeOptions.url === MCP_URL && (err instanceof BodyError || status === 413)) {
      // An MCP client reads JSON-RPC: a body that is no message at all is answered as the
      // protocol's transport answers one (-32700 parse error; -32600 for one too large), id null.
      const code = status === 413 ? -32600 : -32700;
      const text = status === 413 ? message : `Parse error: ${message}`;
      void reply.code(status).type('application/json');
      return reply.send({ jsonrpc: '2.0', error: { code, message: text }, id: null });
    }
    void reply
      .code(status)
      .type('application/json')
      .send(errorBody(message, undefined, issues));
  });

  app.setNotFoundHandler((_req, reply) => {
    void reply.code(404).type('application/json').send(errorBody('Not found'));
  });
}
