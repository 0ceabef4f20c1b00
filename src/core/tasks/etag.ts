/**
 * Versions of task notes for conditional requests. A note's version is a strong entity tag made
 * from the hash of its text (what the index already keeps to tell its own writes from other
 * programs' edits): any change of the note's bytes changes it, and nothing else does. Computed
 * fields that depend on other notes (isBlocked, blocking) are not part of it; see docs/agents.md.
 *
 * A precondition is the list of entity tags a client accepts (`If-Match`, or the `etag` argument
 * of an MCP tool); `*` accepts any existing note. It is checked by the task service under the
 * note's lock, against the text just read from disk, so nothing can change the note between the
 * check and the write.
 */
import { DomainError } from '../errors.js';
import type { TaskInfo } from './task-info.js';

/** Entity tags the client accepts; `*` accepts any current version. */
export type Precondition = readonly string[];

export const PRECONDITION_FAILED = 'Precondition failed: the task changed since this ETag was read';

/** The strong entity tag of a note whose text has this hash. */
export const etagOfHash = (hash: string): string => `"${hash}"`;

/** An entity tag as a client may write it: quotes added when missing. Weak tags stay weak. */
export function normalizeEtag(value: string): string {
  const trimmed = value.trim();
  if (trimmed.startsWith('"') || trimmed.startsWith('W/')) return trimmed;
  return trimmed === '*' ? trimmed : `"${trimmed}"`;
}

/** Strong comparison (what If-Match uses): a weak tag never matches. */
export function preconditionHolds(precondition: Precondition, current: string): boolean {
  return precondition.some((tag) => tag === '*' || tag === current);
}

/** The 412 of a failed precondition: carries the current task and its version for the answer. */
export function preconditionFailed(task: TaskInfo, etag: string): DomainError {
  return new DomainError('PRECONDITION_FAILED', PRECONDITION_FAILED, { task, etag });
}
