/**
 * Command-line parsing for `taskdown`. Produces either a ServerConfig or a usage error with
 * one clear line; the caller maps errors to exit code 2.
 */
import { existsSync, readFileSync, statSync, accessSync, constants } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseAllowedHosts } from '../config/allowed-hosts.js';
import {
  DEFAULT_HOST,
  DEFAULT_PORT,
  isLoopbackHost,
  type LogFormatChoice,
  type ServerConfig,
} from '../config/config.js';
import { resolveCollectionPath } from '../core/config/collection-path.js';
import { isValidationMode } from '../core/validation/mode.js';
import { defaultDataDir } from '../config/data-dir.js';

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const HELP = `Usage: taskdown serve --vault DIR [options]
       taskdown mcp --vault DIR [--data-dir DIR] [--token TOKEN | --token-file FILE]
                    [--log-level LEVEL] [--log-format F]
       taskdown check --vault DIR [--json] [--data-dir DIR]
       taskdown --help | --version

Serve a Markdown vault of TaskNotes tasks over a local HTTP API with signed webhooks.
\`mcp\` serves the same vault to a desktop agent as an MCP server on stdin/stdout.
\`check\` validates every task note of the vault and prints one line per problem (note, field,
code, message; --json: one JSON document); it exits 1 when there is an error, else 0.

Options (environment variable in brackets):
  --vault DIR        vault folder to serve                              [TASKDOWN_VAULT]
  --port N           port to listen on; 0 picks a free one (8080)       [TASKDOWN_PORT]
  --host ADDR        address to bind (127.0.0.1); a non-loopback address
                     requires a token                                   [TASKDOWN_HOST]
  --token TOKEN      bearer token required on every /api request        [TASKDOWN_TOKEN]
                     (visible in ps; prefer --token-file)
  --token-file FILE  read the token from FILE (trailing newline dropped) [TASKDOWN_TOKEN_FILE]
  --allowed-hosts A,B
                     more host names the server answers to, e.g. behind a
                     reverse proxy (.example.com: and its subdomains)  [TASKDOWN_ALLOWED_HOSTS]
  --data-dir DIR     state folder, one server at a time (per user and   [TASKDOWN_DATA_DIR]
                     vault, e.g. ~/.local/state/taskdown/<vault>-<hash>;
                     <vault>/.taskdown where that exists)
  --log-level LEVEL  fatal|error|warn|info|debug|trace|silent (info)    [TASKDOWN_LOG_LEVEL]
  --log-format F     auto|pretty|json: auto is readable lines on a terminal,
                     JSON lines otherwise (auto)                        [TASKDOWN_LOG_FORMAT]
  --webhook-timeout-ms N
                     per-attempt webhook delivery timeout (15000)       [TASKDOWN_WEBHOOK_TIMEOUT_MS]
  --webhook-allow-private
                     with a non-loopback --host, still allow webhooks to
                     loopback and private addresses         [TASKDOWN_WEBHOOK_ALLOW_PRIVATE=1]
  --retention-days N days the delivery log and event journal keep (7) [TASKDOWN_RETENTION_DAYS]
  --retention-records N
                     records each of them keeps at most (10000)         [TASKDOWN_RETENTION_RECORDS]
  --validation MODE  strict: a task write with a validation error is refused
                     with 400; permissive: it is written and logged (strict)
                                                                        [TASKDOWN_VALIDATION]
  --create-demo      create the vault with sample tasks when it does not exist
  -h, --help         show this help
  -v, --version      show the version
`;

export type Command =
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'serve'; config: ServerConfig; createDemo: boolean }
  | { kind: 'mcp'; config: ServerConfig }
  | { kind: 'check'; vault: string; dataDir: string; json: boolean };

/** Options that only make sense for a server that listens (not for `taskdown mcp`). */
const SERVE_ONLY = ['port', 'host', 'allowed-hosts', 'create-demo'] as const;
/** The options `taskdown check` reads; any other is refused rather than silently ignored. */
const CHECK_OPTIONS = new Set(['vault', 'data-dir', 'json']);

const LOG_LEVELS = new Set(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);
const LOG_FORMATS = new Set(['auto', 'pretty', 'json']);

/** The options of `taskdown serve`; their help text is HELP above. */
const OPTIONS = {
  vault: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  token: { type: 'string' },
  'token-file': { type: 'string' },
  'allowed-hosts': { type: 'string' },
  'data-dir': { type: 'string' },
  'log-level': { type: 'string' },
  'log-format': { type: 'string' },
  'webhook-timeout-ms': { type: 'string' },
  'webhook-allow-private': { type: 'boolean' },
  'retention-days': { type: 'string' },
  'retention-records': { type: 'string' },
  validation: { type: 'string' },
  'create-demo': { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

export function parseCommand(argv: string[], env: NodeJS.ProcessEnv): Command {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, strict: true, options: OPTIONS });
  } catch {
    throw new UsageError(explainArgs(argv));
  }
  const { values, positionals } = parsed;
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };
  const [command, ...rest] = positionals;
  if (command === undefined) throw new UsageError('missing command (try "taskdown serve --vault DIR")');
  if (command !== 'serve' && command !== 'mcp' && command !== 'check') {
    throw new UsageError(`unknown command "${command}" (try "taskdown --help")`);
  }
  if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"`);
  if (command === 'check') {
    const other = Object.keys(values).find((name) => !CHECK_OPTIONS.has(name));
    if (other) throw new UsageError(`--${other} is an option of "taskdown serve", not of "taskdown check"`);
    return checkCommand(values, env);
  }
  if (values.json) throw new UsageError('--json is an option of "taskdown check"');
  if (command === 'mcp') {
    const serveOnly = SERVE_ONLY.find((name) => values[name] !== undefined);
    if (serveOnly)
      throw new UsageError(`--${serveOnly} is an option of "taskdown serve", not of "taskdown mcp"`);
  }

  const vaultArg = values.vault ?? env.TASKDOWN_VAULT;
  if (!vaultArg) throw new UsageError('--vault DIR is required (or set TASKDOWN_VAULT)');
  // Flag over environment, relative to the working directory.
  const vault = resolveCollectionPath({ flagPath: values.vault, envPath: env.TASKDOWN_VAULT });
  const createDemo = values['create-demo'] === true;
  if (!createDemo || existsSync(vault)) checkDir(vault, 'vault');
  else checkCreatable(vault, 'vault');

  const portText = values.port ?? env.TASKDOWN_PORT ?? String(DEFAULT_PORT);
  if (!/^\d+$/.test(portText) || Number(portText) > 65535) {
    throw new UsageError(`invalid port "${portText}" (expected 0-65535)`);
  }
  const host = values.host ?? env.TASKDOWN_HOST ?? DEFAULT_HOST;
  const token = resolveToken(values.token, values['token-file'], env);
  let allowedHosts: string[];
  try {
    allowedHosts = parseAllowedHosts(values['allowed-hosts'] ?? env.TASKDOWN_ALLOWED_HOSTS ?? '');
  } catch (err) {
    throw new UsageError(
      `${(err as Error).message} in --allowed-hosts (expected host names, e.g. a.example,b.example)`,
    );
  }
  const dataDirArg = values['data-dir'] ?? env.TASKDOWN_DATA_DIR;
  const dataDir = dataDirArg ? path.resolve(dataDirArg) : defaultDataDir(vault);
  if (existsSync(dataDir)) checkDir(dataDir, 'data dir');
  else checkCreatable(dataDir, 'data dir');
  const logLevel = values['log-level'] ?? env.TASKDOWN_LOG_LEVEL ?? 'info';
  if (!LOG_LEVELS.has(logLevel)) throw new UsageError(`invalid log level "${logLevel}"`);
  const logFormat = values['log-format'] ?? env.TASKDOWN_LOG_FORMAT ?? 'auto';
  if (!LOG_FORMATS.has(logFormat)) {
    throw new UsageError(`invalid log format "${logFormat}" (expected auto, pretty or json)`);
  }
  const timeoutText = values['webhook-timeout-ms'] ?? env.TASKDOWN_WEBHOOK_TIMEOUT_MS ?? '15000';
  if (!/^\d+$/.test(timeoutText) || Number(timeoutText) < 100 || Number(timeoutText) > 600_000) {
    throw new UsageError(`invalid webhook timeout "${timeoutText}" (expected 100-600000 ms)`);
  }
  const daysText = values['retention-days'] ?? env.TASKDOWN_RETENTION_DAYS ?? '7';
  const days = Number(daysText);
  if (!/^\d+(\.\d+)?$/.test(daysText) || !(days > 0) || days > 36_500) {
    throw new UsageError(`invalid retention "${daysText}" (expected a number of days above 0)`);
  }
  const recordsText = values['retention-records'] ?? env.TASKDOWN_RETENTION_RECORDS ?? '10000';
  if (!/^\d+$/.test(recordsText) || Number(recordsText) < 1 || Number(recordsText) > 100_000_000) {
    throw new UsageError(`invalid retention "${recordsText}" (expected 1-100000000 records)`);
  }
  const allowPrivateEnv = env.TASKDOWN_WEBHOOK_ALLOW_PRIVATE;
  if (allowPrivateEnv !== undefined && !['', '0', '1', 'true', 'false'].includes(allowPrivateEnv)) {
    throw new UsageError(`invalid TASKDOWN_WEBHOOK_ALLOW_PRIVATE "${allowPrivateEnv}" (expected 1 or 0)`);
  }
  const validation = values.validation ?? env.TASKDOWN_VALIDATION ?? 'strict';
  if (!isValidationMode(validation)) {
    throw new UsageError(`invalid validation mode "${validation}" (expected strict or permissive)`);
  }

  const config: ServerConfig = {
    vault,
    dataDir,
    host,
    port: Number(portText),
    token,
    allowedHosts,
    logLevel: logLevel as ServerConfig['logLevel'],
    logFormat: logFormat as LogFormatChoice,
    webhookTimeoutMs: Number(timeoutText),
    webhookAllowPrivate:
      values['webhook-allow-private'] === true || allowPrivateEnv === '1' || allowPrivateEnv === 'true',
    retention: { maxAgeMs: Math.round(days * 86_400_000), maxRecords: Number(recordsText) },
    validation,
  };
  return command === 'mcp' ? { kind: 'mcp', config } : { kind: 'serve', createDemo, config };
}

/**
 * The token from `--token`, `--token-file`, `TASKDOWN_TOKEN` or `TASKDOWN_TOKEN_FILE` (flags win
 * over the environment; a flag and a file at the same level are a usage error).
 */
function resolveToken(
  flag: string | undefined,
  flagFile: string | undefined,
  env: NodeJS.ProcessEnv,
): string | null {
  if (flag !== undefined && flagFile !== undefined)
    throw new UsageError('give --token or --token-file, not both');
  if (flag !== undefined || flagFile !== undefined) {
    return flagFile !== undefined ? readTokenFile(flagFile) : flag || null;
  }
  if (env.TASKDOWN_TOKEN && env.TASKDOWN_TOKEN_FILE) {
    throw new UsageError('set TASKDOWN_TOKEN or TASKDOWN_TOKEN_FILE, not both');
  }
  if (env.TASKDOWN_TOKEN_FILE) return readTokenFile(env.TASKDOWN_TOKEN_FILE);
  return env.TASKDOWN_TOKEN || null;
}

function readTokenFile(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read token file ${path.resolve(file)}${code ? ` (${code})` : ''}`);
  }
  const token = text.replace(/[\r\n]+$/, '');
  if (token === '') throw new UsageError(`token file ${path.resolve(file)} is empty`);
  if (/[\r\n]/.test(token)) throw new UsageError(`token file ${path.resolve(file)} has more than one line`);
  return token;
}

/**
 * What is wrong with a command line that parseArgs refused, in Taskdown's words: its messages
 * speak of positional arguments and "--" escapes that a user of this command never needs.
 */
function explainArgs(argv: string[]): string {
  const { tokens } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: false,
    tokens: true,
    options: OPTIONS,
  });
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const option = (OPTIONS as Record<string, { type: 'string' | 'boolean' }>)[token.name];
    if (!option) return `unknown option ${token.rawName} (see "taskdown --help")`;
    if (option.type === 'string' && token.value === undefined) {
      return `${token.rawName} needs a value (see "taskdown --help")`;
    }
    if (option.type === 'string' && !token.inlineValue && token.value?.startsWith('-')) {
      return (
        `${token.rawName} needs a value: "${token.value}" reads as an option ` +
        `(write ${token.rawName}=${token.value} for a value that starts with "-")`
      );
    }
    if (option.type === 'boolean' && token.inlineValue) return `${token.rawName} takes no value`;
  }
  return 'invalid command line (see "taskdown --help")';
}

/** `taskdown check`: the vault and data dir as `serve` resolves them. */
function checkCommand(
  values: { vault?: string; 'data-dir'?: string; json?: boolean },
  env: NodeJS.ProcessEnv,
): Command {
  const vaultArg = values.vault ?? env.TASKDOWN_VAULT;
  if (!vaultArg) throw new UsageError('--vault DIR is required (or set TASKDOWN_VAULT)');
  // Flag over environment, relative to the working directory.
  const vault = resolveCollectionPath({ flagPath: values.vault, envPath: env.TASKDOWN_VAULT });
  checkDir(vault, 'vault', true);
  const dataDirArg = values['data-dir'] ?? env.TASKDOWN_DATA_DIR;
  const dataDir = dataDirArg ? path.resolve(dataDirArg) : defaultDataDir(vault);
  return { kind: 'check', vault, dataDir, json: values.json === true };
}

/** A usable folder: readable, and writable unless `readOnly` (taskdown check only reads). */
function checkDir(dir: string, what: string, readOnly = false): void {
  let stat;
  try {
    stat = statSync(dir);
  } catch {
    const hint =
      what === 'vault' && !readOnly
        ? ' (check the path, or add --create-demo to start with a demo vault there)'
        : '';
    throw new UsageError(`${what} folder ${dir} does not exist${hint}`);
  }
  if (!stat.isDirectory()) throw new UsageError(`${what} ${dir} is not a folder`);
  try {
    accessSync(dir, constants.R_OK | constants.X_OK | (readOnly ? 0 : constants.W_OK));
  } catch {
    throw new UsageError(`${what} folder ${dir} is not readable${readOnly ? '' : ' and writable'}`);
  }
}

/**
 * A folder Taskdown will create: the nearest folder above it that exists must be a writable
 * folder, or the mkdir at start-up would fail with a bare ENOTDIR or EACCES.
 */
function checkCreatable(dir: string, what: string): void {
  let above = path.dirname(dir);
  while (!existsSync(above) && path.dirname(above) !== above) above = path.dirname(above);
  if (!statSync(above, { throwIfNoEntry: false })?.isDirectory()) {
    throw new UsageError(`${what} ${dir} cannot be created: ${above} is not a folder`);
  }
  try {
    accessSync(above, constants.W_OK | constants.X_OK);
  } catch {
    throw new UsageError(`${what} ${dir} cannot be created: ${above} is not writable`);
  }
}

/** README "Security": a non-loopback bind without any token is refused. */
export function checkExposure(host: string, effectiveToken: string | null): void {
  if (!isLoopbackHost(host) && !effectiveToken) {
    throw new UsageError(
      `refusing to listen on non-loopback address ${host} without a token; pass --token or set TASKDOWN_TOKEN`,
    );
  }
}
