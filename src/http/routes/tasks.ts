/** Task routes (reference tasks.md §2). */
import { notImplemented, type RouteSpec } from '../route.js';

const T = ['tasks'];
export const taskRoutes: RouteSpec[] = [
  notImplemented('GET', '/api/tasks', T, 'List tasks (pagination only)'),
  notImplemented('POST', '/api/tasks', T, 'Create a task'),
  notImplemented('POST', '/api/tasks/query', T, 'Query tasks with a FilterQuery'),
  notImplemented('GET', '/api/tasks/:id', T, 'Get one task'),
  notImplemented('PUT', '/api/tasks/:id', T, 'Update a task'),
  notImplemented('DELETE', '/api/tasks/:id', T, 'Delete a task'),
  notImplemented('POST', '/api/tasks/:id/toggle-status', T, 'Toggle completion'),
  notImplemented('POST', '/api/tasks/:id/archive', T, 'Toggle the archive flag'),
  notImplemented('POST', '/api/tasks/:id/complete-instance', T, 'Toggle one recurring instance'),
  notImplemented('POST', '/api/tasks/:id/materialize-occurrence', T, 'Create an occurrence note'),
  notImplemented('GET', '/api/filter-options', T, 'Values available for filters'),
  notImplemented('GET', '/api/stats', T, 'Task statistics'),
];
