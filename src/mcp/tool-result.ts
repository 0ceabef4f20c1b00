/**
 * Tool answers: a JSON text result for success, an MCP tool error (`isError: true`) for a failure,
 * with the API's own messages: a DomainError's message as it is (a 412 also carries the current
 * task, as the HTTP answer does), anything unexpected as `Internal server error` with the details
 * in the log only.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isDomainError } from '../core/errors.js';
import { normalizeEtag, type Precondition } from '../core/tasks/etag.js';
import type { TaskInfo } from '../core/tasks/task-info.js';
import type { McpContext } from './context.js';

/**
 * A tool's answer with a sentence for the agent beside its JSON, as a second text block: what the
 * JSON cannot say without changing the plugin's shape of it (that a page of a query is not all).
 */
export class NotedAnswer {
  constructor(
    readonly data: unknown,
    readonly note: string,
  ) {}
}

export function jsonResult(data: unknown): CallToolResult {
  if (data instanceof NotedAnswer) {
    return {
      content: [
        { type: 'text', text: JSON.stringify(data.data) },
        { type: 'text', text: data.note },
      ],
    };
  }
  return { content: [{ type: 'text', text: JSON.stringify(data) }] };
}

export function errorResult(ctx: McpContext, err: unknown, tool: string): CallToolResult {
  let body: Record<string, unknown> = { error: 'Internal server error' };
  if (isDomainError(err)) {
    body = { error: err.message };
    if (err.code === 'PRECONDITION_FAILED' && err.details) {
      const { task, etag } = err.details as { task: TaskInfo; etag: string };
      body.data = { task: { ...task, etag } };
    }
  } else {
    ctx.log.error({ err, tool }, 'MCP tool failed');
  }
  return { content: [{ type: 'text', text: JSON.stringify(body) }], isError: true };
}

/** Runs a tool's work and turns its result or failure into the tool answer. */
export async function answer(
  ctx: McpContext,
  tool: string,
  work: () => Promise<unknown>,
): Promise<CallToolResult> {
  try {
    return jsonResult(await work());
  } catch (err) {
    return errorResult(ctx, err, tool);
  }
}

/** A task as tools return it: with `etag`, the version an update tool can pass back. */
export function withEtag(ctx: McpContext, task: TaskInfo): TaskInfo & { etag?: string } {
  const etag = ctx.services.tasks.etagOf(task);
  return etag === undefined ? task : { ...task, etag };
}

/** An `etag` argument as the precondition of a write (quotes optional). */
export const preconditionOfArg = (etag: string | undefined): Precondition | undefined =>
  etag === undefined ? undefined : [normalizeEtag(etag)];
