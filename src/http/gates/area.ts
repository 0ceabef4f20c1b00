/**
 * What the gates know about the route a request matched. The gates decide on the matched route,
 * never on the raw URL, so a disguised path (`/%61pi/tasks`) is judged as the route that serves
 * it. Every route gets an area from its own URL pattern when it declares none, including routes
 * registered later by plugins:
 *   - `api`: `/api/*` and `/mcp`: token, and the API switch;
 *   - `settings`: `/settings-api/*`, the settings page's backend: token, not the switch;
 *   - `page`: anything else: token unless declared public.
 * A route is protected unless it declares `public: true`; a request that matches no route is
 * protected too (it answers 404 once authenticated, and never reaches a handler).
 */
export type RouteArea = 'api' | 'settings' | 'page';

export function areaOf(url: string): RouteArea {
  if (url === '/api' || url.startsWith('/api/') || url === '/mcp' || url.startsWith('/mcp/')) return 'api';
  if (url === '/settings-api' || url.startsWith('/settings-api/')) return 'settings';
  return 'page';
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A route that holds no data (static assets of the settings page): no token needed. */
    public?: boolean;
    /** Set from the route's URL pattern when the route declares none. */
    area?: RouteArea;
  }
}
