/** Every route of the server, by area. The order is the OpenAPI document's order. */
import type { RouteSpec } from '../route.js';
import { basesRoutes } from './bases.js';
import { calendarRoutes } from './calendars.js';
import { eventRoutes } from './events.js';
import { mcpRoutes } from './mcp.js';
import { nlpRoutes } from './nlp.js';
import { pomodoroRoutes } from './pomodoro.js';
import { recurrenceRoutes } from './recurrence.js';
import { settingsRoutes } from './settings.js';
import { systemRoutes } from './system.js';
import { taskQueryRoutes } from './task-queries.js';
import { taskRoutes } from './tasks.js';
import { timeRoutes } from './time.js';
import { webhookRoutes } from './webhooks.js';

export const allRoutes: RouteSpec[] = [
  ...taskRoutes,
  ...taskQueryRoutes,
  ...recurrenceRoutes,
  ...timeRoutes,
  ...pomodoroRoutes,
  ...systemRoutes,
  ...nlpRoutes,
  ...webhookRoutes,
  ...eventRoutes,
  ...calendarRoutes,
  ...basesRoutes,
  ...mcpRoutes,
  // The settings page and its backend: outside /api and hidden from the OpenAPI document.
  ...settingsRoutes,
];
