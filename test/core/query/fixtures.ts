/** Task and settings builders shared by the query engine tests. */
import type { TaskInfo } from '../../../src/core/tasks/task-info.js';
import type { QueryEnv, QuerySettings } from '../../../src/core/query/types.js';
import { sampleTask } from '../../helpers/sample-task.js';

export const SETTINGS: QuerySettings = {
  statuses: [
    { value: 'none', label: 'None', order: 0, isCompleted: false },
    { value: 'open', label: 'Open', order: 1, isCompleted: false },
    { value: 'in-progress', label: 'In progress', order: 2, isCompleted: false },
    { value: 'done', label: 'Done', order: 3, isCompleted: true },
  ],
  priorities: [
    { value: 'none', label: 'None', weight: 0 },
    { value: 'low', label: 'Low', weight: 1 },
    { value: 'normal', label: 'Normal', weight: 2 },
    { value: 'high', label: 'High', weight: 3 },
  ],
  userFields: [
    { id: 'effort', key: 'effort', displayName: 'Effort', type: 'number' },
    { id: 'billable', key: 'billable', displayName: 'Billable', type: 'boolean' },
    { id: 'review', key: 'reviewDate', displayName: 'Review', type: 'date' },
    { id: 'people', key: 'people', displayName: 'People', type: 'list' },
    { id: 'client', key: 'client', displayName: 'Client', type: 'text' },
  ],
};

export function task(path: string, fields: Partial<TaskInfo> & Record<string, unknown> = {}): TaskInfo {
  return sampleTask({ id: path, path, title: path.replace(/^.*\//, '').replace(/\.md$/, ''), ...fields });
}

/** 2026-03-10 12:00 local time. */
export const NOW = new Date(2026, 2, 10, 12, 0, 0).getTime();

export const env = (tasks: TaskInfo[], extra: Partial<QueryEnv> = {}): QueryEnv => ({
  tasks,
  settings: SETTINGS,
  now: NOW,
  ...extra,
});

let n = 0;
export const cond = (property: string, operator: string, value?: unknown): Record<string, unknown> => ({
  type: 'condition',
  id: `c${++n}`,
  property,
  operator,
  ...(value === undefined ? {} : { value }),
});
export const and = (...children: unknown[]): Record<string, unknown> => ({
  type: 'group',
  id: `g${++n}`,
  conjunction: 'and',
  children,
});
export const or = (...children: unknown[]): Record<string, unknown> => ({
  type: 'group',
  id: `g${++n}`,
  conjunction: 'or',
  children,
});
