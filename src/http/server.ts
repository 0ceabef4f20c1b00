/**
 * Builds the Fastify instance from the shell's parts: body parsing (body-parser.ts), the gates
 * (gates/), the error mapping (error-handler.ts), the request log line (request-log.ts) and every
 * registered route (register-route.ts), then the plugins the caller adds (the static files of
 * Swagger UI and the settings page: static/). Fastify is confined to src/http; the domain never sees it.
 */
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import { BODY_LIMIT, installBodyParser } from './body-parser.js';
import type { AppContext } from './context.js';
import { clientErrorHandler } from './client-error.js';
import { installErrorHandler } from './error-handler.js';
import { installGates, type GateDeps } from './gates/index.js';
import { openApiOptions } from './openapi.js';
import { registerRoute } from './register-route.js';
import { OneLinePerRequest } from './request-log.js';
import type { RouteSpec } from './route.js';
import { validatorCompiler } from './validation.js';

/**
 * Node's own limits against slow or oversized requests (docs/security.md). A client gets this long
 * to send a whole request (Fastify's default is no limit, which lets a trickling client hold a
 * connection and its memory forever), and less for its headers; responses, such as a long-lived
 * event stream, are not limited. Headers stay within Node's 16 KiB default.
 */
export const REQUEST_TIMEOUT_MS = 30_000;
export const HEADERS_TIMEOUT_MS = 15_000;
/**
 * How often Node looks for connections past those deadlines. Its default, 30 s, let a client that
 * never finished its headers hold its connection for up to 45 s rather than 15; a look a second
 * over the few connections of a local server costs nothing measurable.
 */
export const CONNECTIONS_CHECK_INTERVAL_MS = 1_000;

/** The limits above; tests shorten them to see them act. */
export interface HttpLimits {
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  checkIntervalMs: number;
}

export interface HttpServerDeps extends GateDeps {
  ctx: AppContext;
  routes: RouteSpec[];
  /** Registered after the routes: parts served by Fastify plugins rather than RouteSpecs. */
  plugins?: Array<(app: FastifyInstance, ctx: AppContext) => Promise<void>>;
  log: FastifyBaseLogger;
  limits?: HttpLimits;
}

export async function buildHttpServer(deps: HttpServerDeps): Promise<FastifyInstance> {
  const limits = deps.limits ?? {
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
    headersTimeoutMs: HEADERS_TIMEOUT_MS,
    checkIntervalMs: CONNECTIONS_CHECK_INTERVAL_MS,
  };
  const app = Fastify({
    // A child of its own, so that listen() below can quiet Fastify alone.
    loggerInstance: deps.log.child({}),
    bodyLimit: BODY_LIMIT,
    forceCloseConnections: 'idle',
    requestTimeout: limits.requestTimeoutMs,
    http: { headersTimeout: limits.headersTimeoutMs, connectionsCheckingInterval: limits.checkIntervalMs },
    logController: new OneLinePerRequest(),
    exposeHeadRoutes: false,
    // %2F in task ids must survive routing; find-my-way decodes params after matching. No
    // parameter is too long for the router: a longer one answered 414 from the router before any
    // gate ran, outside the error envelope. Node's header limit (16 KB, the request line
    // included) bounds them.
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 65_536 },
    clientErrorHandler,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,64}$/.test(given) ? given : randomUUID();
    },
  });

  app.setValidatorCompiler(validatorCompiler);
  // Handlers send pre-serialised JSON; response schemas exist for the OpenAPI document only.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  installBodyParser(app);
  installGates(app, deps);
  installErrorHandler(app);

  await app.register(swagger, openApiOptions(deps.ctx));

  for (const spec of deps.routes) registerRoute(app, spec, deps.ctx);
  for (const install of deps.plugins ?? []) await install(app, deps.ctx);
  return app;
}

/**
 * Listens without Fastify's "Server listening at …" log line: the command line prints its own
 * listening line, once, on stdout. Fastify has no option to leave the line out, so its instance
 * logger (a child that nothing else logs through at this point: plugins are loaded by ready(), and
 * no request can arrive before listen() has returned) is silent during the call.
 */
export async function listen(app: FastifyInstance, options: { host: string; port: number }): Promise<void> {
  await app.ready();
  const level = app.log.level;
  app.log.level = 'silent';
  try {
    await app.listen(options);
  } finally {
    app.log.level = level;
  }
}
