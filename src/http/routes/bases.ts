/** Bases route (reference other-routes.md §7). */
import { notImplemented, type RouteSpec } from '../route.js';

export const basesRoutes: RouteSpec[] = [
  notImplemented('POST', '/api/bases/default-files/update', ['bases'], 'Write the default .base view files'),
];
