/**
 * The HTTP shell (buildHttpServer) in process, with test routes and a log captured in memory:
 * for unit tests of the shell's parts (gates, error mapping, body parsing) through Fastify's
 * inject. Integration tests boot the real server instead (server-process.ts).
 */
import { Writable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import { pino } from 'pino';
import type { AppContext } from '../../src/http/context.js';
import { defineRoute, ok, type RouteSpec } from '../../src/http/route.js';
import { buildHttpServer, type HttpServerDeps } from '../../src/http/server.js';

export async function shellWith(routes: RouteSpec[], deps: Partial<Omit<HttpServerDeps, 'routes'>> = {}) {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, next) {
      lines.push(String(chunk));
      next();
    },
  });
  const app = await buildHttpServer({
    // Test routes touch no service and record no event; the shell runs each change through the
    // journal's check of lost events, which has none to find here.
    ctx: {
      services: { journal: { recording: <T>(work: () => Promise<T>) => work() } },
    } as unknown as AppContext,
    log: pino({ level: 'info' }, sink),
    token: () => null,
    apiEnabled: () => true,
    ...deps,
    routes,
  });
  return { app, log: () => lines.join('') };
}

/** A GET route that answers `{success:true,data:"<url>"}`, to see which requests got through. */
export const echoRoute = (url: string, extra: Partial<RouteSpec> = {}): RouteSpec =>
  defineRoute({
    method: 'GET',
    url,
    summary: `echo ${url}`,
    tags: ['test'],
    responses: { 200: Type.String() },
    handler: async () => ok(url),
    ...extra,
  });
