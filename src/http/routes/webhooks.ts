/** Webhook routes (seed "Webhook routes", SPEC §4). */
import { notImplemented, type RouteSpec } from '../route.js';

const T = ['webhooks'];
export const webhookRoutes: RouteSpec[] = [
  notImplemented('POST', '/api/webhooks', T, 'Register a webhook'),
  notImplemented('GET', '/api/webhooks', T, 'List webhooks (secrets omitted)'),
  notImplemented('GET', '/api/webhooks/deliveries', T, 'The last 100 deliveries'),
  notImplemented('DELETE', '/api/webhooks/:id', T, 'Delete a webhook'),
];
