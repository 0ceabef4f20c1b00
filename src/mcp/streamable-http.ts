/**
 * The Streamable HTTP transport of MCP, stateless: every POST gets its own server and transport
 * (no session state to keep, lose or share between clients), and answers with JSON rather than
 * an SSE stream (no tool here streams progress). The SDK's web-standard transport takes a
 * Request and returns a Response, which keeps the HTTP framework out of this folder.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { McpContext } from './context.js';
import { createMcpServer } from './server.js';

/** Answers one POST of JSON-RPC message(s); `body` is the already-parsed request body. */
export async function handleMcpPost(ctx: McpContext, request: Request, body: unknown): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  const server = createMcpServer(ctx);
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, { parsedBody: body });
  } finally {
    await server.close();
  }
}
