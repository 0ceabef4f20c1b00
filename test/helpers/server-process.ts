/**
 * Boots the real `taskdown serve` process (the built executable, dist/bin/taskdown.js) on a temp
 * vault and a free port, and offers a small JSON client for it. Every integration test uses this,
 * so what is tested is exactly what a user runs. `npm test` builds first; a run of single test
 * files after a source change stops with "run npm run build" rather than test an old build.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir, writeFiles } from './temp.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = path.join(ROOT, 'dist/bin/taskdown.js');

/** Newest modification time of the server's sources (src/ without the settings page and tests). */
function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const abs = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (abs !== path.join(ROOT, 'src/web')) newest = Math.max(newest, newestSource(abs));
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
      newest = Math.max(newest, statSync(abs).mtimeMs);
    }
  }
  return newest;
}

let checkedBuild = false;
function assertFreshBuild(): void {
  if (checkedBuild) return;
  const built = statSync(CLI, { throwIfNoEntry: false })?.mtimeMs;
  if (built === undefined) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
  if (newestSource(path.join(ROOT, 'src')) > built) {
    throw new Error('src/ changed after the last build: run `npm run build` (npm test does) first');
  }
  checkedBuild = true;
}

/** The built executable, after checking the build is newer than the sources. */
export function builtCli(): string {
  assertFreshBuild();
  return CLI;
}

export interface ServerOptions {
  /** Files to put in the vault before start (vault-relative path → content). */
  files?: Record<string, string>;
  /** Use an existing vault folder instead of a fresh temp one. */
  vault?: string;
  /** Use an existing data dir (e.g. to test restarts). Default: a fresh temp folder. */
  dataDir?: string;
  /**
   * false: start without --data-dir, so the server uses its default data dir (in the isolated
   * home, see isolatedHome); `dataDir` is then ''.
   */
  dataDirFlag?: boolean;
  token?: string;
  host?: string;
  /** Extra CLI arguments. */
  args?: string[];
  env?: Record<string, string>;
  /** Milliseconds to wait for the listening line. */
  startTimeoutMs?: number;
}

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface TestServer {
  url: string;
  vault: string;
  dataDir: string;
  process: ChildProcess;
  /** Everything the process wrote to stderr so far (logs). */
  stderr(): string;
  /** Sends a JSON request; `body` is serialised unless it is already a string. */
  request<T = any>(
    method: string,
    pathname: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<ApiResponse<T>>;
  /** Sends SIGTERM and waits for exit; returns the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Stops the server and removes the temp folders it created. */
  cleanup(): Promise<void>;
}

/** Sends a JSON request to the server at `url`; `body` is serialised unless it is already a string. */
export async function jsonRequest<T = any>(
  url: string,
  method: string,
  pathname: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<ApiResponse<T>> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
  }
  const res = await fetch(url + pathname, init);
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text.length > 0 ? JSON.parse(text) : undefined;
  } catch {
    // Non-JSON bodies (HTML, assets) stay as text.
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

export const encodeId = (id: string): string => encodeURIComponent(id);

let home: string | undefined;
/**
 * The environment that gives a started server a home of its own (one temp folder per test
 * process, removed when it exits): a server started without --data-dir keeps its state in the
 * per-user state folder, which must never be the real one of whoever runs the tests.
 */
export function isolatedHome(): Record<string, string> {
  if (home === undefined) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'taskdown-home-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    home = dir;
  }
  return {
    HOME: home,
    USERPROFILE: home,
    XDG_STATE_HOME: path.join(home, '.local/state'),
    LOCALAPPDATA: home,
  };
}

// Servers still running when a test file's process exits (a failed assertion before cleanup)
// are killed, so no orphan keeps a port or CPU after the run.
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

export async function startTestServer(options: ServerOptions = {}): Promise<TestServer> {
  const owned: Array<() => Promise<void>> = [];
  let vault = options.vault;
  if (!vault) {
    const t = await tempDir('taskdown-vault-');
    owned.push(t.cleanup);
    vault = t.dir;
  }
  let dataDir = options.dataDirFlag === false ? '' : options.dataDir;
  if (dataDir === undefined) {
    const t = await tempDir('taskdown-data-');
    owned.push(t.cleanup);
    dataDir = t.dir;
  }
  if (options.files) await writeFiles(vault, options.files);

  assertFreshBuild();
  const args = [
    CLI,
    'serve',
    '--vault',
    vault,
    ...(dataDir === '' ? [] : ['--data-dir', dataDir]),
    '--port',
    '0',
  ];
  if (options.host) args.push('--host', options.host);
  if (options.token) args.push('--token', options.token);
  args.push(...(options.args ?? []));
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...isolatedHome(), TASKDOWN_LOG_LEVEL: 'warn', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  child.once('exit', () => live.delete(child));
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));

  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    // A server that never says it is listening is killed, so a failed start cannot keep the
    // test process alive.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start in time; stderr:\n${stderr}`));
    }, options.startTimeoutMs ?? 30_000);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const match = /taskdown listening on (http:\/\/\S+)/.exec(stdout);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening; stderr:\n${stderr}`));
    });
  });

  let exited: Promise<number | null> = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  const server: TestServer = {
    url,
    vault,
    dataDir,
    process: child,
    stderr: () => stderr,
    request: (method, pathname, body, headers) => jsonRequest(url, method, pathname, body, headers),
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      const code = await exited;
      exited = Promise.resolve(code);
      return code;
    },
    async cleanup() {
      await server.stop();
      for (const remove of owned) await remove();
    },
  };
  return server;
}

/** Runs the CLI to completion (for exit-code tests); resolves with code and output. */
export function runCli(
  args: string[],
  env: Record<string, string> = {},
  timeoutMs = 20_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    assertFreshBuild();
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...isolatedHome(), TASKDOWN_LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`CLI did not exit in time; stderr:\n${stderr}`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * Polls `check` until it returns a truthy value or the time runs out. The default is generous: a
 * passing test returns at its first truthy check, and a loaded CI machine can be many times slower.
 */
export async function waitFor<T>(check: () => T | Promise<T>, timeoutMs = 20_000, stepMs = 25): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('waitFor: condition not met in time');
    await new Promise((r) => setTimeout(r, stepMs));
  }
}
