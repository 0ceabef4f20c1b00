/** Which requests the auth gate and the API switch look at. */

/** Paths that need the token when one is set: the API and the settings page's own backend. */
export function isProtectedPath(pathname: string): boolean {
  return pathname.startsWith('/api/') || pathname === '/api' || pathname.startsWith('/settings-api/');
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A route that holds no data (static assets): no token needed. */
    public?: boolean;
  }
}
