/** Calendar routes (reference other-routes.md §6). */
import { notImplemented, type RouteSpec } from '../route.js';

const T = ['calendars'];
export const calendarRoutes: RouteSpec[] = [
  notImplemented('GET', '/api/calendars', T, 'Calendar sources overview'),
  notImplemented('GET', '/api/calendars/google', T, 'Google Calendar status'),
  notImplemented('GET', '/api/calendars/microsoft', T, 'Microsoft Calendar status'),
  notImplemented('GET', '/api/calendars/subscriptions', T, 'ICS subscriptions'),
  notImplemented('GET', '/api/calendars/events', T, 'Merged calendar events in a window'),
];
