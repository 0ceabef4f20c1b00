/**
 * `taskdown mcp`: the MCP tools on stdin/stdout for a desktop agent that starts its MCP servers
 * as child processes, speaking nothing but JSON-RPC on stdout (logs go to stderr).
 *
 * When a `taskdown serve` already runs on the data dir and vault, the process forwards the
 * agent's messages to that server's `/mcp` (src/cli/mcp-forward.ts): one Taskdown per data dir,
 * and the agent sees what the server's other clients do; a `serve` of another vault there is
 * refused. Otherwise it opens the vault itself, with every service a `serve` runs (webhooks,
 * reminders, pomodoro timers), and ends when the agent closes stdin, or on SIGINT/SIGTERM, after
 * persisting state.
 */
import { realpathSync } from 'node:fs';
import type { ServerConfig } from '../config/config.js';
import { createProcessLogger } from '../process-logger.js';
import type { Logger } from '../core/logger.js';
import { DataDirLockedError, readRunningServer, type LockOwner } from '../core/state/instance-lock.js';
import { SettingsStore } from '../core/state/settings.js';
import { createServices } from '../services.js';
import { forwardMcpOverStdio } from './mcp-forward.js';

/** How long to wait for a server that holds the data dir but does not listen yet. */
const STARTING_SERVER_WAIT_MS = 10_000;

export async function runMcp(config: ServerConfig): Promise<void> {
  const log = await createProcessLogger(config);
  const running = await listeningServer(config.dataDir);
  // The agent asked for this vault: a server of another one on the data dir is refused as a
  // second `serve` would be, never forwarded to.
  if (running?.vault !== undefined && !sameFolder(running.vault, config.vault)) {
    throw new DataDirLockedError(config.dataDir, running);
  }
  if (running) {
    // The server's token: the one given to this command, else the settings page's (the data dir
    // is this user's). A server started with another --token refuses it, in one line.
    const token = config.token ?? (await SettingsStore.open(config.dataDir)).get().apiToken;
    await forwardMcpOverStdio({ url: reachableUrl(running.url), pid: running.pid, token }, log);
    return;
  }
  await runMcpLocally(config, log);
}

/**
 * The `serve` that holds the data dir, once it listens (a starting one records its URL within
 * moments). Undefined when none runs, or when the holder is another `taskdown mcp`: that one has
 * no URL, and opening the vault then reports it.
 */
async function listeningServer(dataDir: string): Promise<(LockOwner & { url: string }) | undefined> {
  const deadline = Date.now() + STARTING_SERVER_WAIT_MS;
  for (;;) {
    const owner = readRunningServer(dataDir);
    if (owner?.url) return { ...owner, url: owner.url };
    if (!owner || owner.command !== 'serve' || Date.now() > deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** True when both paths lead to the same folder (one may be reached through a link). */
function sameFolder(a: string, b: string): boolean {
  const real = (p: string): string => {
    try {
      return realpathSync.native(p);
    } catch {
      return p;
    }
  };
  return a === b || real(a) === real(b);
}

/** A server bound to every address (0.0.0.0, ::) is reached on loopback. */
function reachableUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.hostname === '0.0.0.0') parsed.hostname = '127.0.0.1';
  else if (parsed.hostname === '[::]') parsed.hostname = '[::1]';
  return parsed.origin;
}

async function runMcpLocally(config: ServerConfig, log: Logger): Promise<void> {
  const runtime = await createServices({ config, log, command: 'mcp' });
  const [{ StdioServerTransport }, { createMcpServer }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/stdio.js'),
    import('../mcp/server.js'),
  ]);
  const { journal } = runtime.services;
  const server = createMcpServer({
    services: runtime.services,
    log,
    recording: journal.recording.bind(journal),
  });
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
