/**
 * What the MCP tests share: the TaskNotes plugin's 25 tool names, and reading a tool answer (a
 * JSON text content, `isError` for a failure).
 */
import assert from 'node:assert/strict';

/** The tools of the TaskNotes plugin's MCP server, which Taskdown offers under the same names. */
export const REFERENCE_TOOLS = [
  'tasknotes_list_tasks',
  'tasknotes_get_task',
  'tasknotes_create_task',
  'tasknotes_update_task',
  'tasknotes_delete_task',
  'tasknotes_toggle_status',
  'tasknotes_toggle_archive',
  'tasknotes_complete_recurring_instance',
  'tasknotes_materialize_occurrence',
  'tasknotes_create_task_from_text',
  'tasknotes_query_tasks',
  'tasknotes_get_filter_options',
  'tasknotes_get_stats',
  'tasknotes_start_time_tracking',
  'tasknotes_stop_time_tracking',
  'tasknotes_get_active_time_sessions',
  'tasknotes_get_time_summary',
  'tasknotes_get_task_time_data',
  'tasknotes_start_pomodoro',
  'tasknotes_stop_pomodoro',
  'tasknotes_pause_pomodoro',
  'tasknotes_resume_pomodoro',
  'tasknotes_get_pomodoro_status',
  'tasknotes_get_calendar_events',
  'tasknotes_health_check',
];

/** Taskdown's own tools. */
export const TASKDOWN_TOOLS = [
  'tasknotes_skip_instance',
  'tasknotes_unskip_instance',
  'tasknotes_parse_text',
  'tasknotes_list_webhooks',
  'tasknotes_get_webhook',
  'tasknotes_create_webhook',
  'tasknotes_update_webhook',
  'tasknotes_delete_webhook',
  'tasknotes_ping_webhook',
  'tasknotes_rotate_webhook_secret',
  'tasknotes_get_webhook_deliveries',
  'tasknotes_get_webhook_delivery',
  'tasknotes_redeliver_webhook_delivery',
];

/** A tool answer as the SDK client types it (a legacy `toolResult` shape included). */
type ToolAnswer = Record<string, unknown>;

/** The JSON of a tool answer; asserts whether it is an error. */
export function toolJson(result: ToolAnswer, isError = false): any {
  assert.equal(result.isError === true, isError, JSON.stringify(result));
  const content = result.content as Array<{ type: string; text: string }>;
  assert.equal(content[0]?.type, 'text');
  return JSON.parse(content[0].text);
}

/** The calls the stdio and HTTP tests both make. */
export interface ToolClient {
  listTools(): Promise<{
    tools: Array<{
      name: string;
      description?: string;
      inputSchema: any;
      annotations?: Record<string, unknown>;
    }>;
  }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<ToolAnswer>;
}

/**
 * What an agent does, end to end: list the tools, create a task, find it with a query, update it
 * with its etag, fail on a stale etag (nothing written), and get the API's message for a missing
 * task. `readNote` reads a vault file, to prove what was (not) written.
 */
export async function agentScenario(
  client: ToolClient,
  readNote: (path: string) => Promise<string>,
): Promise<void> {
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  for (const name of [...REFERENCE_TOOLS, ...TASKDOWN_TOOLS]) assert.ok(names.includes(name), name);
  assert.equal(names.length, REFERENCE_TOOLS.length + TASKDOWN_TOOLS.length);
  const update = tools.find((t) => t.name === 'tasknotes_update_task');
  assert.equal(update?.description, "Update an existing task's properties");
  assert.deepEqual(update?.inputSchema.required, ['id']);
  assert.ok(update?.inputSchema.properties.etag);
  // Unknown arguments are refused (see the MCP HTTP test), and the schema says so.
  assert.equal(update?.inputSchema.additionalProperties, false);
  // What each tool does to the world, as MCP's hints say it: a client asks before destructive
  // ones, retries idempotent ones, and knows which reach past the vault.
  const hints = (name: string): Record<string, unknown> | undefined =>
    tools.find((t) => t.name === name)?.annotations;
  assert.deepEqual(hints('tasknotes_get_task'), { readOnlyHint: true, openWorldHint: false });
  assert.deepEqual(hints('tasknotes_create_task'), { destructiveHint: false, openWorldHint: false });
  assert.deepEqual(hints('tasknotes_delete_task'), {
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  });
  assert.deepEqual(hints('tasknotes_toggle_status'), { openWorldHint: false });
  assert.deepEqual(hints('tasknotes_ping_webhook'), { destructiveHint: false, openWorldHint: true });
  assert.match(
    tools.find((t) => t.name === 'tasknotes_complete_recurring_instance')?.description ?? '',
    /^Toggle .*calling it twice undoes it/,
  );
  // Arguments whose odd values change the answer without failing it say so, as the routes do.
  const argument = (tool: string, name: string): string =>
    tools.find((t) => t.name === tool)?.inputSchema.properties[name]?.description ?? '';
  assert.match(
    argument('tasknotes_get_calendar_events', 'start'),
    /a value that is not is ignored, as if none were given/,
  );
  assert.match(argument('tasknotes_start_pomodoro', 'duration'), /clamped to 1 s \.\. 2 h/);

  const created = toolJson(
    await client.callTool({
      name: 'tasknotes_create_task',
      arguments: { title: 'Agent task', priority: 'high', tags: ['agent'], due: '2030-01-02' },
    }),
  );
  assert.equal(created.path, 'TaskNotes/Tasks/Agent task.md');
  assert.match(created.etag, /^".+"$/);

  const queried = toolJson(
    await client.callTool({
      name: 'tasknotes_query_tasks',
      arguments: {
        conjunction: 'and',
        children: [{ type: 'condition', id: 'c1', property: 'tags', operator: 'contains', value: 'agent' }],
        groupKey: 'priority',
      },
    }),
  );
  assert.deepEqual(Object.keys(queried), ['high']);
  assert.deepEqual(
    queried.high.map((t: { title: string }) => t.title),
    ['Agent task'],
  );

  const updated = toolJson(
    await client.callTool({
      name: 'tasknotes_update_task',
      arguments: { id: created.path, status: 'in-progress', etag: created.etag },
    }),
  );
  assert.equal(updated.status, 'in-progress');
  assert.notEqual(updated.etag, created.etag);
  const written = await readNote(created.path);
  assert.match(written, /status: in-progress/);

  const conflict = toolJson(
    await client.callTool({
      name: 'tasknotes_update_task',
      arguments: { id: created.path, priority: 'low', etag: created.etag },
    }),
    true,
  );
  assert.equal(conflict.error, 'Precondition failed: the task changed since this ETag was read');
  assert.equal(conflict.data.task.status, 'in-progress');
  assert.equal(conflict.data.task.etag, updated.etag);
  assert.equal(await readNote(created.path), written);

  const missing = toolJson(
    await client.callTool({ name: 'tasknotes_get_task', arguments: { id: 'Nope.md' } }),
    true,
  );
  assert.deepEqual(missing, { error: 'Task not found' });
}
