/**
 * Turns a RouteSpec into a Fastify route: response schemas wrapped in the envelope (for the
 * OpenAPI document), the shell's error answers added to every route, and the handler's result
 * written as an enveloped JSON or a raw body.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from './context.js';
import { ErrorEnvelope, successBody, SuccessEnvelope } from './envelope.js';
import type { RouteSpec } from './route.js';

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Bad request',
  401: 'Authentication required',
  403: 'Host not allowed (the Host header names no host this server answers to) or CORS origin is not allowed',
  404: 'Not found',
  413: 'Body over 1 MiB',
  429: 'Too many failed authentication attempts from this client; retry after the Retry-After seconds',
  503: 'HTTP API is disabled; the vault folder, a note or the data dir cannot be read or written right now (the message says which and that nothing was changed); a change was made but its events could not be recorded; or a calendar request was given up because the server is stopping',
};

/** Answers every route can give: the gates' (403, 401, 429, 503), routing and body ones. */
const SHELL_STATUSES = [400, 401, 403, 404, 413, 429, 503];

export function registerRoute(app: FastifyInstance, spec: RouteSpec, ctx: AppContext): void {
  const response: Record<number, unknown> = {};
  for (const [code, schema] of Object.entries(spec.responses)) {
    const status = Number(code);
    response[status] = spec.raw || status >= 300 ? schema : SuccessEnvelope(schema);
  }
  for (const status of SHELL_STATUSES) {
    if (status in response || (status === 413 && !spec.body)) continue;
    if ((status === 401 || status === 429) && spec.public) continue;
    response[status] = ErrorEnvelope(ERROR_DESCRIPTIONS[status] ?? 'Error');
  }
  app.route({
    method: spec.method,
    url: spec.url,
    config: { public: spec.public === true },
    // Only defined parts: Fastify warns about schema keys that are present but undefined.
    schema: withoutUndefined({
      summary: spec.summary,
      description: spec.description,
      tags: spec.tags,
      params: spec.params,
      querystring: spec.querystring,
      body: spec.body,
      response,
      hide: spec.public === true || spec.hidden === true,
    }),
    handler: async (req, reply) => {
      const run = () =>
        spec.handler(
          {
            params: req.params as never,
            query: req.query as never,
            body: req.body as never,
            headers: req.headers,
          },
          ctx,
        );
      // A change whose events were lost is not answered as a success (503); reads changed
      // nothing, and a route that answers in its own protocol says so itself.
      const reads = req.method === 'GET' || req.method === 'HEAD';
      const result =
        reads || spec.answersLostEvents ? await run() : await ctx.services.journal.recording(run);
      if (result.headers) void reply.headers(result.headers);
      if (result.kind === 'raw') {
        return reply.code(result.status).type(result.contentType).send(result.body);
      }
      return reply.code(result.status).type('application/json').send(successBody(result.data));
    },
  });
}

function withoutUndefined<T extends object>(obj: T): T {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as T;
}
