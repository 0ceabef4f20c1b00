/** System routes: health and the OpenAPI document (Swagger UI: src/http/static/docs-ui.ts). */
import { Type } from '@sinclair/typebox';
import { defineRoute, ok, type RouteSpec } from '../route.js';
import { INTERFACE_VERSION, VERSION } from '../../version.js';
import { finishDocument } from '../openapi.js';

export const HealthData = Type.Object({
  status: Type.Literal('ok'),
  timestamp: Type.String(),
  vault: Type.Object({
    name: Type.String(),
    path: Type.String(),
    available: Type.Boolean({
      description:
        'false while the vault folder is moved away or unmounted: tasks are served as they were ' +
        'and every write answers 503 until it is back',
    }),
  }),
  version: Type.String(),
  interfaceVersion: Type.Literal(INTERFACE_VERSION),
  validation: Type.Union([Type.Literal('strict'), Type.Literal('permissive')], {
    description: 'strict: a task write with a validation error is refused; permissive: it is written',
  }),
});

export const systemRoutes: RouteSpec[] = [
  defineRoute({
    method: 'GET',
    url: '/api/health',
    summary: 'Service health',
    tags: ['system'],
    responses: { 200: HealthData },
    handler: async (_input, ctx) =>
      ok({
        status: 'ok',
        timestamp: new Date().toISOString(),
        vault: { ...ctx.services.vaultInfo, available: ctx.services.tasks.vaultAvailable },
        version: VERSION,
        interfaceVersion: INTERFACE_VERSION,
        validation: ctx.services.tasks.validationMode,
      }),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/docs',
    summary: 'OpenAPI 3.1 document',
    description: 'The document itself, not wrapped in the envelope.',
    tags: ['system'],
    raw: true,
    responses: { 200: Type.Object({}, { additionalProperties: true, description: 'OpenAPI 3.1 document' }) },
    handler: async (_input, ctx) => ({
      kind: 'raw',
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify(finishDocument(ctx.openapi(), ctx), null, 2),
    }),
  }),
];
