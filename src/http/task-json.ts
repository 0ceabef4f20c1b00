/**
 * JSON text of read-only task objects, cached per object. The task index hands out frozen
 * TaskInfo objects that are replaced (never mutated) when a note changes, so the text of a frozen
 * object can be reused until the object is dropped; a large query answer is then a join of cached
 * strings instead of a fresh JSON.stringify of every task (the biggest cost of that route).
 */
import type { TaskInfo } from '../core/tasks/task-info.js';
import type { RawResult } from './route.js';

const cache = new WeakMap<TaskInfo, string>();

export function taskJson(task: TaskInfo): string {
  let text = cache.get(task);
  if (text === undefined) {
    text = JSON.stringify(task);
    // Only frozen objects: anything else could change after its text was taken.
    if (Object.isFrozen(task)) cache.set(task, text);
  }
  return text;
}

/** `[task, …]` as JSON text. */
export function taskListJson(tasks: readonly TaskInfo[]): string {
  return `[${tasks.map(taskJson).join(',')}]`;
}

/**
 * A 200 success envelope whose `tasks` array is written from the per-task cache. The text is
 * exactly `JSON.stringify({success: true, data})`: keys in order, undefined values left out.
 */
export function okWithTasks(data: { tasks: readonly TaskInfo[] } & Record<string, unknown>): RawResult {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(data)) {
    if (value === undefined) continue;
    const text = key === 'tasks' ? taskListJson(value as readonly TaskInfo[]) : JSON.stringify(value);
    parts.push(`${JSON.stringify(key)}:${text}`);
  }
  return {
    kind: 'raw',
    status: 200,
    contentType: 'application/json',
    body: `{"success":true,"data":{${parts.join(',')}}}`,
  };
}
