/**
 * Conditional requests on task routes (docs/agents.md): every answer that is one task carries its
 * note's strong `ETag`; `If-None-Match` on a read answers 304 when the client's copy is current;
 * `If-Match` on a write becomes a precondition that the task service checks under the note's lock
 * (a mismatch is a 412 with the current task, and nothing is written).
 */
import { Type } from '@sinclair/typebox';
import { normalizeEtag, type Precondition } from '../core/tasks/etag.js';
import type { TaskInfo } from '../core/tasks/task-info.js';
import type { AppContext } from './context.js';
import { ErrorEnvelope } from './envelope.js';
import type { JsonResult, RawResult, RouteInput } from './route.js';

type Headers = RouteInput<unknown, unknown, unknown>['headers'];

/**
 * The entity tags of an `If-Match` / `If-None-Match` value: `*`, or a comma-separated list of
 * `"tag"` / `W/"tag"`. A bare token (a common client slip) counts as the quoted tag.
 */
export function entityTags(header: string | string[] | undefined): string[] | undefined {
  if (header === undefined) return undefined;
  const text = Array.isArray(header) ? header.join(',') : header;
  const tags = text.match(/(?:W\/)?"[^"]*"|[^\s,]+/g) ?? [];
  return tags.map(normalizeEtag);
}

/** The `If-Match` precondition of a write, if the request has one. */
export const preconditionOf = (headers: Headers): Precondition | undefined => entityTags(headers['if-match']);

/** Whether `If-None-Match` names the current version (weak comparison, as RFC 9110 asks for reads). */
export function notModified(headers: Headers, etag: string | undefined): boolean {
  const tags = entityTags(headers['if-none-match']);
  if (!tags || etag === undefined) return false;
  const opaque = (tag: string): string => tag.replace(/^W\//, '');
  return tags.some((tag) => tag === '*' || opaque(tag) === opaque(etag));
}

/** A success answer whose data is `task` (or contains it), with the task's ETag. */
export function taskResult(ctx: AppContext, task: TaskInfo, data: unknown = task, status = 200): JsonResult {
  const etag = ctx.services.tasks.etagOf(task);
  return { status, data, ...(etag === undefined ? {} : { headers: { ETag: etag } }) };
}

/** 304 for a client whose copy is current. */
export const notModifiedResult = (etag: string): RawResult => ({
  kind: 'raw',
  status: 304,
  body: '',
  contentType: 'application/json',
  headers: { ETag: etag },
});

/** OpenAPI parts of the conditional routes. */
export const IF_MATCH_NOTE =
  ' With `If-Match: "<ETag>"` the write happens only while the note is still that version; otherwise ' +
  '412 with the current task in `data.task` and nothing written.';

export const PreconditionFailedSchema = Type.Intersect(
  [
    ErrorEnvelope('Precondition failed'),
    Type.Object({ data: Type.Object({ task: Type.Object({}, { additionalProperties: true }) }) }),
  ],
  { description: 'If-Match did not match the current ETag; `data.task` is the current task' },
);

export const NotModifiedSchema = Type.Null({
  description: 'Not modified: If-None-Match names the current ETag',
});
