/**
 * System routes: health, the OpenAPI document and Swagger UI. Swagger UI's files come from the
 * installed swagger-ui-dist package (no CDN), so the docs work offline.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Type } from '@sinclair/typebox';
import { HttpError } from '../http-error.js';
import { defineRoute, ok, type RouteSpec } from '../route.js';
import { INTERFACE_VERSION, VERSION } from '../../version.js';
import { finishDocument } from '../openapi.js';

const require = createRequire(import.meta.url);
const SWAGGER_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const SWAGGER_FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};
const assetCache = new Map<string, Buffer>();

const SWAGGER_HTML = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Taskdown API documentation</title>
  <link rel="stylesheet" href="/api/docs/ui/assets/swagger-ui.css">
  <link rel="icon" type="image/png" href="/api/docs/ui/assets/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/api/docs/ui/assets/swagger-ui-bundle.js"></script>
  <script src="/api/docs/ui/assets/swagger-ui-standalone-preset.js"></script>
  <script src="/api/docs/ui/assets/init.js"></script>
</body>
</html>
`;

// Served as a file rather than inline so the page works under a strict script-src policy.
const SWAGGER_INIT = `window.ui = SwaggerUIBundle({
  url: '/api/docs',
  dom_id: '#swagger-ui',
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'BaseLayout',
  tryItOutEnabled: true,
  displayRequestDuration: true,
  docExpansion: 'list',
  filter: true,
  validatorUrl: null
});
`;

export const HealthData = Type.Object({
  status: Type.Literal('ok'),
  timestamp: Type.String(),
  vault: Type.Object({ name: Type.String(), path: Type.String() }),
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
        vault: ctx.services.vaultInfo,
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
  defineRoute({
    method: 'GET',
    url: '/api/docs/ui',
    summary: 'Swagger UI',
    description: 'Interactive documentation served from local assets (works offline).',
    tags: ['system'],
    raw: true,
    responses: { 200: Type.String({ description: 'HTML page' }) },
    handler: async () => ({
      kind: 'raw',
      status: 200,
      contentType: 'text/html; charset=utf-8',
      body: SWAGGER_HTML,
    }),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/docs/ui/assets/:file',
    summary: 'Swagger UI asset',
    tags: ['system'],
    raw: true,
    hidden: true,
    params: Type.Object({ file: Type.String() }),
    responses: { 200: Type.String() },
    handler: async ({ params }) => {
      if (params.file === 'init.js') {
        return {
          kind: 'raw',
          status: 200,
          contentType: 'application/javascript; charset=utf-8',
          body: SWAGGER_INIT,
        };
      }
      const type = SWAGGER_FILES[params.file];
      if (!type) throw new HttpError(404, 'Not found');
      let body = assetCache.get(params.file);
      if (!body) {
        body = await readFile(path.join(SWAGGER_DIR, params.file));
        assetCache.set(params.file, body);
      }
      return {
        kind: 'raw',
        status: 200,
        contentType: type,
        body,
        headers: { 'Cache-Control': 'public, max-age=86400' },
      };
    },
  }),
];
