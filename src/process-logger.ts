/**
 * The process's logger, shared by `taskdown serve` and `taskdown mcp`: always on stderr (stdout
 * carries the listening line, or the MCP protocol). JSON lines for programs (a file, a pipe,
 * journald, a log shipper); one human-readable line per entry, through pino-pretty, for a person
 * at a terminal. `--log-format` overrides the choice either way.
 */
import { pino, type DestinationStream, type Logger } from 'pino';
import type { LogFormatChoice, ServerConfig } from './config/config.js';

export type LogFormat = 'pretty' | 'json';

export interface LogStyle {
  format: LogFormat;
  /** ANSI colours: only on a terminal that has not asked for none. */
  colour: boolean;
}

/**
 * How logs look, from the requested format, whether stderr is a terminal and the environment:
 * `auto` is pretty on a terminal and JSON elsewhere; colours only on a terminal, and never with
 * NO_COLOR set (no-color.org) or TERM=dumb.
 */
export function logStyle(choice: LogFormatChoice, stderrIsTTY: boolean, env: NodeJS.ProcessEnv): LogStyle {
  const format = choice === 'auto' ? (stderrIsTTY ? 'pretty' : 'json') : choice;
  const colour = format === 'pretty' && stderrIsTTY && !env.NO_COLOR && env.TERM !== 'dumb';
  return { format, colour };
}

/** Keys of the one line per request (src/http/request-log.ts), shown as its message instead. */
const REQUEST_KEYS = ['method', 'url', 'statusCode', 'responseTime'] as const;

export async function createProcessLogger(
  config: Pick<ServerConfig, 'logLevel' | 'logFormat'>,
  stderr: { isTTY?: boolean } = process.stderr,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Logger> {
  const style = logStyle(config.logFormat ?? 'auto', stderr.isTTY === true, env);
  // Synchronous writes to fd 2: nothing is lost when the process exits right after a line.
  const fd2 = pino.destination({ dest: 2, sync: true });
  // A log line that cannot be written (stderr on a full disk, a closed pipe) is lost: without a
  // listener the stream's 'error' event would be thrown and stop the server mid-request.
  fd2.on('error', () => {});
  const options = { level: config.logLevel, redact: ['req.headers.authorization'] };
  return pino(options, style.format === 'json' ? fd2 : await prettyDestination(fd2, style.colour));
}

/**
 * pino-pretty's formatter, run in this process on each JSON line (its stream form would write
 * asynchronously, and could lose the last lines at exit). A request line reads
 * `GET /api/tasks?limit=50 200 1.4 ms` instead of four fields.
 */
async function prettyDestination(out: DestinationStream, colour: boolean): Promise<DestinationStream> {
  // Loaded here so that a server logging JSON never compiles it.
  const { prettyFactory } = await import('pino-pretty');
  const prettify = prettyFactory({
    colorize: colour,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: ['pid', 'hostname', ...REQUEST_KEYS].join(','),
    singleLine: true,
    messageFormat: (log, messageKey) => {
      const message = String(log[messageKey] ?? '');
      if (!REQUEST_KEYS.every((key) => key in log)) return message;
      const ms = Number(log.responseTime).toFixed(1);
      return `${String(log.method)} ${String(log.url)} ${String(log.statusCode)} ${ms} ms`;
    },
  });
  return { write: (line: string) => out.write(prettify(line)) };
}
