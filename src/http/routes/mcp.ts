/**
 * `/mcp`: the Model Context Protocol's Streamable HTTP transport, stateless (docs/agents.md). The
 * tools and the transport live in src/mcp and are loaded on the first request, so a server that
 * never sees an agent never loads the MCP SDK. Token, Host and origin rules are those of `/api`.
 * A stateless server has no stream to offer on GET and no session to end on DELETE: both answer
 * 405, as the transport specification says.
 */
import { Type } from '@sinclair/typebox';
import type { RawResult, RouteSpec } from '../route.js';
import { defineRoute } from '../route.js';
import { validatedByHandler } from '../validation.js';

const T = ['mcp'];

const JsonRpc = Type.Object(
  { jsonrpc: Type.Literal('2.0') },
  { additionalProperties: true, description: 'A JSON-RPC 2.0 message (request, notification or response)' },
);

const methodNotAllowed = (): RawResult => ({
  kind: 'raw',
  status: 405,
  contentType: 'application/json',
  headers: { Allow: 'POST' },
  body: JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null }),
});

const notAllowedRoute = (method: 'GET' | 'DELETE'): RouteSpec =>
  defineRoute({
    method,
    url: '/mcp',
    summary: `MCP: ${method} is not supported (stateless server)`,
    description:
      'A stateless Streamable HTTP server opens no server-to-client stream and has no session: 405.',
    tags: T,
    raw: true,
    responses: { 405: JsonRpc },
    handler: async () => methodNotAllowed(),
  });

export const mcpRoutes: RouteSpec[] = [
  defineRoute({
    method: 'POST',
    url: '/mcp',
    summary: 'Model Context Protocol (Streamable HTTP, stateless)',
    description:
      'JSON-RPC messages of the Model Context Protocol: `initialize`, `tools/list`, `tools/call` of the ' +
      "TaskNotes plugin's 25 tools (`tasknotes_list_tasks` … `tasknotes_health_check`) and Taskdown's " +
      'own: skip/unskip instance, `tasknotes_parse_text`, and a tool for each webhook route. `taskdown mcp` ' +
      'on the same data dir forwards its stdio messages here. Requests need `Accept: application/json, text/event-stream` and `Content-Type: ' +
      'application/json`; answers are JSON (202 without a body for notifications). A failing tool answers ' +
      "a result with `isError: true` and the API's error message. Same token as `/api`.",
    tags: T,
    raw: true,
    // A tool whose change's events were lost answers a tool error (src/mcp/server.ts); a 503 in
    // place of the JSON-RPC answer would fail the whole message, reads included.
    answersLostEvents: true,
    // The SDK checks the messages and answers JSON-RPC errors (-32700, -32600) itself.
    body: validatedByHandler(Type.Union([JsonRpc, Type.Array(JsonRpc)])),
    responses: {
      200: Type.Union([JsonRpc, Type.Array(JsonRpc)], { description: 'JSON-RPC response(s)' }),
      202: Type.Null({ description: 'Accepted (notifications and responses only)' }),
      400: Type.Object(
        { jsonrpc: Type.Literal('2.0') },
        {
          additionalProperties: true,
          description: 'A body that is not JSON (or nested over 100 levels): error -32700, id null',
        },
      ),
      413: Type.Object(
        { jsonrpc: Type.Literal('2.0') },
        { additionalProperties: true, description: 'A body over 1 MiB: error -32600, id null' },
      ),
      406: JsonRpc,
      415: JsonRpc,
    },
    handler: async ({ body, headers }, ctx) => {
      const { handleMcpPost } = await import('../../mcp/streamable-http.js');
      const request = new Request(`http://${ctx.config.host}/mcp`, {
        method: 'POST',
        headers: webHeaders(headers),
      });
      const { journal } = ctx.services;
      const mcp = { services: ctx.services, log: ctx.log, recording: journal.recording.bind(journal) };
      const response = await handleMcpPost(mcp, request, body);
      return {
        kind: 'raw',
        status: response.status,
        contentType: response.headers.get('content-type') ?? 'application/json',
        body: Buffer.from(await response.arrayBuffer()),
        headers: Object.fromEntries([...response.headers].filter(([name]) => name !== 'content-type')),
      };
    },
  }),
  notAllowedRoute('GET'),
  notAllowedRoute('DELETE'),
];

function webHeaders(headers: Record<string, string | string[] | undefined>): Headers {
  const out = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) out.append(name, v);
  }
  return out;
}
