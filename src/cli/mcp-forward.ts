/**
 * `taskdown mcp` next to a running server: rather than open the vault a second time (one
 * Taskdown per data dir, docs/vault-safety.md), the process passes the agent's JSON-RPC messages
 * from stdin to the server's `POST /mcp` and the answers back to stdout, on the SDK's stdio
 * server transport and Streamable HTTP client transport. The server does the work; this process
 * holds no vault, store or timer.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../core/logger.js';

export interface ForwardTarget {
  /** The server's base URL, as its data dir lock records it. */
  url: string;
  /** The running server's process id (for messages). */
  pid: number;
  /** The bearer token to send, if any. */
  token: string | null;
}

/** The server cannot be used: one line for the user, and the process ends with 1. */
export class ForwardError extends Error {
  override readonly name = 'ForwardError';
}

/** How long the running server has to answer the first request before it counts as hung. */
const PROBE_TIMEOUT_MS = 10_000;

/**
 * How long requests still under way may take to be answered once stdin closed (an agent that
 * pipes its requests in and closes stdin still wants every answer).
 */
const DRAIN_LIMIT_MS = 30_000;

/** JSON-RPC's "internal error": the answer to a request the server could not be asked. */
const INTERNAL_ERROR = -32603;

/**
 * Checks that the server takes this process's token, then forwards until stdin closes or a
 * signal arrives. Throws ForwardError when the server refuses (no token, wrong token, API off).
 */
export async function forwardMcpOverStdio(target: ForwardTarget, log: Logger): Promise<void> {
  const [{ StdioServerTransport }, { StreamableHTTPClientTransport, StreamableHTTPError }, types] =
    await Promise.all([
      import('@modelcontextprotocol/sdk/server/stdio.js'),
      import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
      import('@modelcontextprotocol/sdk/types.js'),
    ]);
  const endpoint = new URL('/mcp', target.url);
  const headers: Record<string, string> = target.token ? { Authorization: `Bearer ${target.token}` } : {};
  const requestInit = { headers };
  const where = `the Taskdown server at ${target.url} (process ${target.pid})`;

  /** What went wrong talking to the server, in one line. */
  const describe = (err: unknown): string => {
    if (err instanceof StreamableHTTPError) {
      if (err.code === 401) {
        return target.token
          ? `${where} refused the token; give the one it uses with --token-file FILE (or --token, TASKDOWN_TOKEN)`
          : `${where} needs a token; give it with --token-file FILE (or --token, TASKDOWN_TOKEN)`;
      }
      return `${where} answered ${err.code}: ${serverMessage(err.message)}`;
    }
    const cause = (err as { cause?: { code?: string } }).cause?.code;
    return `${where} is not reachable (${cause ?? (err as Error).message})`;
  };

  // One request first, so a refused token is one clear line before the agent sees anything; and
  // a server that holds the data dir but does not answer (stopped, hung) one too, not a wait
  // without end.
  const probe = new StreamableHTTPClientTransport(endpoint, { requestInit });
  let timer: NodeJS.Timeout | undefined;
  try {
    const answered = new Promise<void>((resolve) => (probe.onmessage = () => resolve()));
    const silent = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new ForwardError(
              `${where} does not answer (waited ${PROBE_TIMEOUT_MS / 1000} s): is it stopped?`,
            ),
          ),
        PROBE_TIMEOUT_MS,
      );
    });
    await Promise.race([
      (async () => {
        await probe.start();
        await probe.send({ jsonrpc: '2.0', id: 0, method: 'ping' });
        await answered;
      })(),
      silent,
    ]);
  } catch (err) {
    throw err instanceof ForwardError ? err : new ForwardError(describe(err));
  } finally {
    clearTimeout(timer);
    // Not waited for: closing a request the server never answers may wait too.
    void probe.close();
  }

  const upstream = new StreamableHTTPClientTransport(endpoint, { requestInit });
  const local = new StdioServerTransport();
  const initializeIds = new Set<string | number>();
  /** Requests passed on and not answered yet. */
  const unanswered = new Set<string | number>();
  /** Set once stdin closed: the process ends when the last request under way is answered. */
  let draining = false;
  const answered = (id: string | number): void => {
    unanswered.delete(id);
    if (draining && unanswered.size === 0) stop('stdin closed');
  };

  upstream.onmessage = (message) => {
    // The protocol version the server chose goes on every later request, as the SDK client does.
    if (types.isJSONRPCResultResponse(message) && initializeIds.delete(message.id)) {
      const version = (message.result as { protocolVersion?: unknown }).protocolVersion;
      if (typeof version === 'string') upstream.setProtocolVersion(version);
    }
    local
      .send(message)
      .catch((err: unknown) => log.warn({ err }, 'could not write to stdout'))
      .finally(() => {
        const response = types.isJSONRPCResultResponse(message) || types.isJSONRPCError(message);
        if (response && message.id !== undefined) answered(message.id);
      });
  };
  upstream.onerror = (err) => log.debug({ err }, 'MCP forwarding: server transport error');

  let stopping = false;
  const stop = (reason: string, code = 0): void => {
    if (stopping) return;
    stopping = true;
    log.info({ reason }, 'MCP forwarding stopping');
    Promise.allSettled([local.close(), upstream.close()]).then(() => process.exit(code));
  };

  local.onmessage = (message: JSONRPCMessage) => {
    const request = types.isJSONRPCRequest(message) ? message : undefined;
    if (request && types.isInitializeRequest(request)) initializeIds.add(request.id);
    if (request) unanswered.add(request.id);
    upstream.send(message).catch((err: unknown) => {
      const line = describe(err);
      log.error({ err }, line);
      if (request) {
        local
          .send({ jsonrpc: '2.0', id: request.id, error: { code: INTERNAL_ERROR, message: line } })
          .catch(() => {})
          .finally(() => answered(request.id));
      }
      // A server that went away will not come back as this one: end, so the agent starts
      // `taskdown mcp` again (which then opens the vault itself).
      if (!(err instanceof StreamableHTTPError)) {
        process.stderr.write(`taskdown: ${line}\n`);
        stop('server gone', 1);
      }
    });
  };
  local.onerror = (err) => log.warn({ err }, 'MCP forwarding: unreadable message on stdin');

  process.stdin.once('end', () => {
    draining = true;
    if (unanswered.size === 0) stop('stdin closed');
    else setTimeout(() => stop('stdin closed, requests unanswered'), DRAIN_LIMIT_MS).unref();
  });
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  await upstream.start();
  await local.start();
  log.info({ url: target.url, pid: target.pid }, 'MCP on stdio, forwarding to the running server');
}

/** The server's own message inside the SDK's "Error POSTing to endpoint: <body>". */
function serverMessage(text: string): string {
  const body = text.replace(/^Streamable HTTP error: /, '').replace(/^Error POSTing to endpoint: /, '');
  try {
    const parsed = JSON.parse(body) as { error?: unknown };
    if (typeof parsed.error === 'string') return parsed.error;
  } catch {
    // Not the API's envelope: the text as it is.
  }
  return body;
}
