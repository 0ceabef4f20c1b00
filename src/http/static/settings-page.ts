/**
 * The settings page's files (built by scripts/build-web.mjs into dist/web of the package, so the
 * page works offline and without a CDN), served by @fastify/static. Public: the files hold no
 * data, and the page has to load before it can ask for the token.
 *
 * One route per file found at start (`wildcard: false`) rather than a catch-all: a catch-all would
 * be a public route matching every unknown path, and unmatched paths must stay behind the token.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../http-error.js';
import { PACKAGE_ROOT } from '../../version.js';

export const WEB_DIR = path.join(PACKAGE_ROOT, 'dist', 'web');

/**
 * The page loads only its own files and talks only to this server; the policy makes an injected
 * script or a foreign frame useless, which matters on a page that handles the API token.
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  // Asset names are not content-hashed, so the browser revalidates (ETag) instead of caching blindly.
  'Cache-Control': 'no-cache',
};

export async function installSettingsPage(app: FastifyInstance): Promise<void> {
  await app.register(async (page) => {
    page.addHook('onRoute', (route) => {
      route.config = { ...route.config, public: true };
    });
    if (!existsSync(path.join(WEB_DIR, 'index.html'))) {
      // A source checkout that was never built: say how to fix it instead of a bare 404.
      page.get('/', () => {
        throw new HttpError(503, 'The settings page is not built; run `npm run build`');
      });
      return;
    }
    await page.register(fastifyStatic, {
      root: WEB_DIR,
      wildcard: false,
      index: 'index.html',
      serveDotFiles: false,
      cacheControl: false,
      setHeaders: (res) => {
        for (const [name, value] of Object.entries(PAGE_HEADERS)) res.setHeader(name, value);
      },
    });
  });
}
