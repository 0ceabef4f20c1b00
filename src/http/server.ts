/**
 * Builds the Fastify instance: body parsing, gates, the error mapping and every registered
 * route. Fastify is confined to src/http; the domain never sees it.
 */
import { randomUUID } from 'node:crypto';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import swagger from '@fastify/swagger';
import { isDomainError } from '../core/errors.js';
import type { AppContext } from './context.js';
import { errorBody, ErrorEnvelope, successBody, SuccessEnvelope } from './envelope.js';
import { authGate, corsGate, isProtectedPath, preflight } from './gates.js';
import { HttpError } from './http-error.js';
import { openApiOptions } from './openapi.js';
import type { RouteSpec } from './route.js';
import { statusOf } from './status-of.js';
import { describeValidationError, validatorCompiler } from './validation.js';

export const BODY_LIMIT = 1024 * 1024;

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Bad request',
  401: 'Authentication required',
  403: 'CORS origin is not allowed',
  404: 'Not found',
  413: 'Body over 1 MiB',
  503: 'HTTP API is disabled',
};

export interface HttpServerDeps {
  ctx: AppContext;
  routes: RouteSpec[];
  /** Effective bearer token, read per request so settings-page changes apply at once. */
  token: () => string | null;
  apiEnabled: () => boolean;
  log: FastifyBaseLogger;
}

export async function buildHttpServer(deps: HttpServerDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.log,
    bodyLimit: BODY_LIMIT,
    forceCloseConnections: 'idle',
    logController: new OneLinePerRequest(),
    exposeHeadRoutes: false,
    // %2F in task ids must survive routing; find-my-way decodes params after matching.
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 2048 },
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,64}$/.test(given) ? given : randomUUID();
    },
  });

  app.setValidatorCompiler(validatorCompiler);
  // Handlers send pre-serialised JSON; response schemas exist for the OpenAPI document only.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  // Clients send JSON with or without a Content-Type; treat every body as JSON text.
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

  // Callback-style hooks: an async hook costs a promise and a microtask turn on every request.
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('X-Request-Id', req.id);
    try {
      corsGate(req, reply);
      if (req.method === 'OPTIONS') {
        preflight(reply);
        return;
      }
      const pathname = req.url.split('?', 1)[0] ?? '';
      if (isProtectedPath(pathname) && !req.routeOptions.config?.public) {
        authGate(req, deps.token());
        if (pathname.startsWith('/api') && !deps.apiEnabled())
          throw new HttpError(503, 'HTTP API is disabled');
      }
    } catch (err) {
      done(err as Error);
      return;
    }
    done();
  });

  // A POST without a body is an empty object, as in the reference.
  app.addHook('preValidation', (req, _reply, done) => {
    if (req.body === undefined && (req.method === 'POST' || req.method === 'PUT')) req.body = {};
    done();
  });

  app.setErrorHandler((err: FastifyError | Error, req, reply) => {
    let status = 500;
    let message = 'Internal server error';
    const fe = err as FastifyError;
    if (err instanceof HttpError) {
      status = err.status;
      message = err.message;
    } else if (isDomainError(err)) {
      status = statusOf(err.code);
      message = err.message;
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
    if (status >= 500) req.log.error({ err }, 'request failed');
    void reply.code(status).type('application/json').send(errorBody(message));
  });

  app.setNotFoundHandler((_req, reply) => {
    void reply.code(404).type('application/json').send(errorBody('Not found'));
  });

  await app.register(swagger, openApiOptions(deps.ctx));

  for (const spec of deps.routes) registerRoute(app, spec, deps.ctx);
  return app;
}

function registerRoute(app: FastifyInstance, spec: RouteSpec, ctx: AppContext): void {
  const response: Record<number, unknown> = {};
  for (const [code, schema] of Object.entries(spec.responses)) {
    const status = Number(code);
    response[status] = spec.raw || status >= 300 ? schema : SuccessEnvelope(schema);
  }
  for (const status of [400, 401, 403, 404, 413, 503]) {
    if (!(status in response) && (status !== 413 || spec.body)) {
      response[status] = ErrorEnvelope(ERROR_DESCRIPTIONS[status] ?? 'Error');
    }
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
      const result = await spec.handler(
        {
          params: req.params as never,
          query: req.query as never,
          body: req.body as never,
          headers: req.headers,
        },
        ctx,
      );
      if (result.headers) void reply.headers(result.headers);
      if (result.kind === 'raw') {
        return reply.code(result.status).type(result.contentType).send(result.body);
      }
      return reply.code(result.status).type('application/json').send(successBody(result.data));
    },
  });
}

/**
 * One log line per request (reqId from the request's child logger, method, url, status, ms)
 * instead of Fastify's two: logging is a measurable part of serving a cached task list.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, req: FastifyRequest, reply: FastifyReply): void {
    const line = {
      method: req.method,
      url: req.url,
      statusCode: reply.statusCode,
      responseTime: reply.elapsedTime,
    };
    if (error) req.log.error({ ...line, err: error }, 'request errored');
    else req.log.info(line, 'request completed');
  }
}

function withoutUndefined<T extends object>(obj: T): T {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as T;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    public?: boolean;
  }
}
