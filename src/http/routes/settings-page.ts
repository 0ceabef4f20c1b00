/**
 * Static files of the settings page (built by scripts/build-web.mjs into dist/web of the
 * package, so the page works offline and without a CDN). Public: the files hold no data, and
 * the page has to load before it can ask for the token.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Type } from '@sinclair/typebox';
import { HttpError } from '../http-error.js';
import { defineRoute, type RawResult, type RouteSpec } from '../route.js';
import { PACKAGE_ROOT } from '../../version.js';

export const WEB_DIR = path.join(PACKAGE_ROOT, 'dist', 'web');

const TYPES: Record<string, string> = {
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/**
 * The page loads only its own files and talks only to this server; the policy makes an injected
 * script or a foreign frame useless, which matters on a page that handles the API token.
 */
const PAGE_HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  // Asset names are not content-hashed, so the browser revalidates instead of caching blindly.
  'Cache-Control': 'no-cache',
};

/** Asset names are plain file names: no folders, no dot files, so nothing outside dist/web. */
const ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

async function serveFile(file: string, contentType: string): Promise<RawResult> {
  let body: Buffer;
  try {
    body = await readFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new HttpError(404, 'Not found');
    throw err;
  }
  return { kind: 'raw', status: 200, contentType, body, headers: PAGE_HEADERS };
}

export const settingsPageRoutes: RouteSpec[] = [
  defineRoute({
    method: 'GET',
    url: '/',
    summary: 'Settings page',
    tags: ['settings'],
    raw: true,
    public: true,
    responses: { 200: Type.String({ description: 'HTML page' }) },
    handler: async () => {
      try {
        return await serveFile(path.join(WEB_DIR, 'index.html'), 'text/html; charset=utf-8');
      } catch (err) {
        if (err instanceof HttpError && err.status === 404) {
          // A source checkout that was never built: say how to fix it instead of a bare 404.
          throw new HttpError(503, 'The settings page is not built; run `npm run build`');
        }
        throw err;
      }
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/assets/:file',
    summary: 'Settings page asset',
    tags: ['settings'],
    raw: true,
    public: true,
    params: Type.Object({ file: Type.String() }),
    responses: { 200: Type.String() },
    handler: async ({ params }) => {
      const type = TYPES[path.extname(params.file)];
      if (!type || !ASSET_NAME.test(params.file)) throw new HttpError(404, 'Not found');
      return serveFile(path.join(WEB_DIR, 'assets', params.file), type);
    },
  }),
];
