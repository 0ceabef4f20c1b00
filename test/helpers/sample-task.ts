/** One sample TaskInfo for tests: an open, normal-priority task `a.md`, with `overrides` over it. */
import type { TaskInfo } from '../../src/core/tasks/task-info.js';

export function sampleTask(overrides: Partial<TaskInfo> & Record<string, unknown> = {}): TaskInfo {
  return {
    id: 'a.md',
    path: 'a.md',
    title: 'A',
    status: 'open',
    priority: 'normal',
    archived: false,
    tags: ['task'],
    contexts: [],
    projects: [],
    totalTrackedTime: 0,
    isBlocked: false,
    isBlocking: false,
    ...overrides,
  };
}
