/**
 * Swagger UI at /api/docs/ui, served by @fastify/swagger-ui from the files the build copies out of
 * that package into dist/docs-ui (scripts/build-server.mjs; no CDN, so the docs work offline). It
 * shows the document GET /api/docs answers, finished the same way (finishDocument). Its routes are
 * under /api, so they sit behind the gates like every API route.
 */
import path from 'node:path';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { finishDocument } from '../openapi.js';
import { PACKAGE_ROOT } from '../../version.js';

export const DOCS_UI_PATH = '/api/docs/ui';
export const DOCS_UI_DIR = path.join(PACKAGE_ROOT, 'dist', 'docs-ui');

/**
 * The plugin hides its routes from the OpenAPI document; the page itself is part of the
 * interface, so its route is documented like the others.
 */
const DOCS_UI_SCHEMA = {
  summary: 'Swagger UI',
  description: 'Interactive documentation served from local assets (works offline).',
  tags: ['system'],
  response: { 200: { type: 'string', description: 'HTML page' } },
};

export async function installDocsUi(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (docs) => {
    docs.addHook('onRoute', (route) => {
      if (route.method !== 'GET' || route.url !== DOCS_UI_PATH) return;
      route.schema = DOCS_UI_SCHEMA;
      // Fastify also serves the page at the path with a trailing slash, and the document would
      // name that one; the interface's path has none.
      route.config = {
        ...route.config,
        swaggerTransform: () => ({ schema: DOCS_UI_SCHEMA, url: DOCS_UI_PATH }),
      };
    });
    await docs.register(swaggerUi, {
      routePrefix: DOCS_UI_PATH,
      baseDir: DOCS_UI_DIR,
      // BaseLayout shows no logo; without one the plugin would read its own logo file, which the
      // bundle does not carry.
      logo: { type: 'image/svg+xml', content: '' },
      theme: { title: 'Taskdown API documentation' },
      uiConfig: {
        layout: 'BaseLayout',
        deepLinking: true,
        tryItOutEnabled: true,
        displayRequestDuration: true,
        docExpansion: 'list',
        filter: true,
      },
      transformSpecification: (doc) => finishDocument(doc as Record<string, unknown>, ctx),
    });
  });
}
