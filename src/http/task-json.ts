/**
 * JSON text of read-only task objects, cached per object. The task index hands out shared
 * TaskInfo objects that are replaced (never mutated) when a note changes (shared-views.ts), so
 * the text of a shared object can be reused until the object is dropped; a large query answer is then written from
 * cached strings instead of a fresh JSON.stringify of every task (the biggest cost of that route).
 */
import { isShared } from '../core/tasks/shared-views.js';
import type { TaskInfo } from '../core/tasks/task-info.js';
import type { RawResult } from './route.js';

const cache = new WeakMap<TaskInfo, string>();

export function taskJson(task: TaskInfo): string {
  let text = cache.get(task);
  if (text === undefined) {
    text = JSON.stringify(task);
    // Only the index's shared objects: anything else could change after its text was taken.
    if (isShared(task)) cache.set(task, text);
  }
  return text;
}

/**
 * A 200 success envelope whose `tasks` array is written from the per-task cache. The bytes are
 * exactly those of `JSON.stringify({success: true, data})`: keys in order, undefined values left out.
 */
export function okWithTasks(data: { tasks: readonly TaskInfo[] } & Record<string, unknown>): RawResult {
  const parts: string[] = ['{"success":true,"data":{'];
  let first = true;
  for (const [key, value] of Object.entries(data)) {
    if (value === undefined) continue;
    parts.push(`${first ? '' : ','}${JSON.stringify(key)}:`);
    first = false;
    if (key === 'tasks') {
      const tasks = value as readonly TaskInfo[];
      parts.push('[');
      tasks.forEach((task, i) => parts.push(i === 0 ? taskJson(task) : `,${taskJson(task)}`));
      parts.push(']');
    } else {
      parts.push(JSON.stringify(value));
    }
  }
  parts.push('}}');
  // The charset Fastify adds by itself to a string body, not to a buffer.
  return {
    kind: 'raw',
    status: 200,
    contentType: 'application/json; charset=utf-8',
    body: concatUtf8(parts),
  };
}

/**
 * The UTF-8 bytes of `parts` joined, written straight into one buffer: a large answer never
 * becomes one large string on the V8 heap (such strings outlive their request in the young
 * generation's large-object space until the next scavenge, which under a query load left a
 * dozen megabytes of dead answers resident).
 */
function concatUtf8(parts: readonly string[]): Buffer {
  let total = 0;
  for (const part of parts) total += Buffer.byteLength(part, 'utf8');
  const out = Buffer.allocUnsafe(total);
  let offset = 0;
  for (const part of parts) offset += out.write(part, offset, 'utf8');
  return out;
}
