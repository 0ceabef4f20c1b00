/** Natural-language routes (reference other-routes.md §2, §3). */
import { notImplemented, type RouteSpec } from '../route.js';

const T = ['nlp'];
export const nlpRoutes: RouteSpec[] = [
  notImplemented('POST', '/api/nlp/parse', T, 'Parse text into task fields'),
  notImplemented('POST', '/api/nlp/create', T, 'Create a task from text'),
];
