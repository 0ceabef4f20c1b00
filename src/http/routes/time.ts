/** Time-tracking routes (reference other-routes.md §4). */
import { notImplemented, type RouteSpec } from '../route.js';

const T = ['time tracking'];
export const timeRoutes: RouteSpec[] = [
  notImplemented('POST', '/api/tasks/:id/time/start', T, 'Start time tracking on a task'),
  notImplemented(
    'POST',
    '/api/tasks/:id/time/start-with-description',
    T,
    'Start tracking with a description',
  ),
  notImplemented('POST', '/api/tasks/:id/time/stop', T, 'Stop time tracking on a task'),
  notImplemented('GET', '/api/tasks/:id/time', T, 'Time entries and totals of a task'),
  notImplemented('GET', '/api/time/active', T, 'Running time sessions'),
  notImplemented('GET', '/api/time/summary', T, 'Tracked time summary'),
];
