/** Pomodoro routes (reference other-routes.md §5). */
import { notImplemented, type RouteSpec } from '../route.js';

const T = ['pomodoro'];
export const pomodoroRoutes: RouteSpec[] = [
  notImplemented('POST', '/api/pomodoro/start', T, 'Start a pomodoro session'),
  notImplemented('POST', '/api/pomodoro/stop', T, 'Stop the current session'),
  notImplemented('POST', '/api/pomodoro/pause', T, 'Pause the running session'),
  notImplemented('POST', '/api/pomodoro/resume', T, 'Resume a paused session'),
  notImplemented('GET', '/api/pomodoro/status', T, 'Current pomodoro state'),
  notImplemented('GET', '/api/pomodoro/sessions', T, 'Session history'),
  notImplemented('GET', '/api/pomodoro/stats', T, 'Pomodoro statistics'),
];
