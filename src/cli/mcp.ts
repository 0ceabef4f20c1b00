/**
 * `taskdown mcp`: the MCP tools on stdin/stdout for a desktop agent that starts its MCP servers
 * as child processes. The process opens the vault itself, with every service a `serve` runs
 * (webhooks, reminders, pomodoro timers), and speaks nothing but JSON-RPC on stdout: logs go to
 * stderr. It ends when the agent closes stdin, or on SIGINT/SIGTERM, after persisting state.
 */
import type { ServerConfig } from '../config/config.js';
import { createProcessLogger } from '../process-logger.js';
import { createServices } from '../services.js';

export async function runMcpOverStdio(config: ServerConfig): Promise<void> {
  const log = await createProcessLogger(config);
  const runtime = await createServices({ config, log, command: 'mcp' });
  const [{ StdioServerTransport }, { createMcpServer }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/stdio.js'),
    import('../mcp/server.js'),
  ]);
  const server = createMcpServer({ services: runtime.services, log });
  const transport = new StdioServerTransport();

  let stopping = false;
  const stop = (reason: string): void => {
    if (stopping) return;
    stopping = true;
    log.info({ reason }, 'MCP server stopping');
    server
      .close()
      .then(() => runtime.stop())
      .then(
        () => process.exit(0),
        (err: unknown) => {
          process.stderr.write(`taskdown: shutdown failed: ${(err as Error).message}\n`);
          process.exit(1);
        },
      );
  };
  process.stdin.once('end', () => stop('stdin closed'));
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  await server.connect(transport);
  log.info({ vault: config.vault, dataDir: config.dataDir }, 'MCP server on stdio');
}
