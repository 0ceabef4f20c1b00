/**
 * The MCP server of Taskdown: the 25 tools of the TaskNotes plugin's MCP server (same names,
 * descriptions and argument shapes, so agents configured for the plugin work unchanged) plus
 * Taskdown's own (skip/unskip instance, text parsing, webhooks), each a thin adapter over a
 * service. One server per transport: the HTTP endpoint makes one per request (stateless),
 * `taskdown mcp` one per process.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { invalid } from '../core/errors.js';
import { hasUnpairedSurrogate, NOT_UNICODE } from '../core/well-formed.js';
import { VERSION } from '../version.js';
import type { McpContext } from './context.js';
import type { ToolDefinition } from './tool.js';
import { answer } from './tool-result.js';
import { calendarTools } from './tools/calendar.js';
import { pomodoroTools } from './tools/pomodoro.js';
import { queryTools } from './tools/queries.js';
import { systemTools } from './tools/system.js';
import { taskTools } from './tools/tasks.js';
import { timeTools } from './tools/time.js';
import { webhookTools } from './tools/webhooks.js';

export const SERVER_NAME = 'taskdown';

/** Every tool, in the order `tools/list` shows them. */
export const TOOLS: readonly ToolDefinition[] = [
  ...taskTools,
  ...queryTools,
  ...timeTools,
  ...pomodoroTools,
  ...calendarTools,
  ...systemTools,
  ...webhookTools,
];

/**
 * The JSON Schema validator every server shares. Left to itself, each server makes its own (an
 * Ajv instance with its meta-schemas compiled): about 0.4 ms of the 2.9 ms of CPU a `tools/call`
 * took over HTTP, where each request has a server of its own (2,000 calls, Node 20.20). The
 * validator keeps no per-server state (it checks elicitation answers, which no tool asks for).
 */
let validator: AjvJsonSchemaValidator | undefined;

export function createMcpServer(ctx: McpContext): McpServer {
  validator ??= new AjvJsonSchemaValidator();
  const server = new McpServer({ name: SERVER_NAME, version: VERSION }, { jsonSchemaValidator: validator });
  for (const tool of TOOLS) {
    server.registerTool(
      tool.name,
      { description: tool.description, inputSchema: tool.input, annotations: tool.annotations },
      (args: unknown) =>
        answer(ctx, tool.name, () => {
          // The HTTP body parser refuses such text for /mcp; over stdio it arrives here.
          if (hasUnpairedSurrogate(args)) throw invalid(NOT_UNICODE);
          const run = () => tool.run(ctx, args as never);
          // A change whose events were lost is a tool error, not a success; reads changed nothing.
          return tool.annotations?.readOnlyHint === true ? run() : ctx.recording(run);
        }),
    );
  }
  return server;
}
