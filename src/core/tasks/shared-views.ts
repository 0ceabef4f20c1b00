/**
 * The read shapes the task index hands out and keeps (TaskService's view cache): they are
 * replaced when a note changes, never mutated, so what is derived from one (its JSON text, its
 * lower-cased tags) can be cached per object until the object is dropped. Each is kept with the
 * hash of the note text it was built from, which gives its ETag (TaskService.etagOf): one weak-map
 * entry per read shape rather than a second one for the tag, as the first query after a start
 * makes one per task (docs/performance.md).
 *
 * They are marked here rather than frozen: V8 gives each object frozen by Object.freeze a hidden
 * class of its own, which made every property read of the query filter megamorphic (measured on
 * the scale bench: docs/performance.md, "Queries"). Nothing may mutate a shared view: code that needs a
 * variant copies it (the detail and precondition answers of TaskService do).
 */
import type { TaskInfo } from './task-info.js';

const shared = new WeakMap<object, string>();

/** Marks `view`, built from the note text of hash `hash`, as a kept read shape. */
export function markShared<T extends TaskInfo>(view: T, hash: string): T {
  shared.set(view, hash);
  return view;
}

/** Whether `view` is one of the index's kept read shapes (never mutated). */
export function isShared(view: object): boolean {
  return shared.has(view);
}

/** The hash of the note text a kept read shape was built from; undefined for other objects. */
export function sharedHash(view: object): string | undefined {
  return shared.get(view);
}
