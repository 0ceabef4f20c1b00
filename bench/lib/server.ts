/**
 * What the task benches share: starting the built server (`node dist/bin/taskdown.js serve`) and
 * the bare baselines as child processes, HTTP requests, and the measurements taken on them
 * (cold starts, throughput, latency, edit pickup, CPU time and resident memory from /proc).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, watch } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../../test/helpers/temp.js';
import { msSince, summarize } from './stats.js';
import { EDIT_TARGET, EDIT_TARGET_TEXT } from './vault-generator.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CLI = path.join(ROOT, 'dist/bin/taskdown.js');
const BARE_SCAN = path.join(ROOT, 'bench/lib/bare-scan.mjs');
const BARE_SERVER = path.join(ROOT, 'bench/lib/bare-server.mjs');

/** Requests in flight during a throughput run (also the agent's socket count). */
export const CONCURRENCY = 16;

export function assertBuilt(): void {
  if (!existsSync(CLI)) throw new Error('dist/bin/taskdown.js is missing: run `npm run build` first');
}

export interface Proc {
  child: ChildProcess;
  /** Group 1 of the readiness line: a server's URL, the scan's CPU time. */
  captured: string;
  stop(): Promise<void>;
}

/** Spawns `node args…` (the Node running the bench) and resolves once it prints a line matching `re`. */
/** Children still running: killed if the bench itself ends early (say, on an exception). */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** How long a stopped process may take to exit before it is killed. */
const STOP_GRACE_MS = 15_000;

export function spawnUntil(args: string[], re: RegExp): Promise<Proc> {
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  child.once('exit', () => running.delete(child));
  // The end of its error output, printed should it fail before it is stopped.
  let errors = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    errors = (errors + chunk).slice(-4_000);
  });
  let stopping = false;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      if (!stopping && code !== 0) console.error(`${args.join(' ')} exited (${code ?? signal}):\n${errors}`);
      resolve();
    }),
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const m = re.exec(out);
      if (m) {
        resolve({
          child,
          captured: m[1] ?? '',
          stop: async () => {
            stopping = true;
            if (child.exitCode === null) child.kill('SIGTERM');
            const kill = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
            await exited;
            clearTimeout(kill);
          },
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code} before ready`)));
  });
}

export type Server = Proc & { url: string; dataDir: string; cleanup(): Promise<void> };

/** Starts the built server; with `dataDir` the caller owns (and keeps) the data dir. */
export async function startServer(vault: string, dataDir?: string): Promise<Server> {
  const data = dataDir === undefined ? await tempDir('taskdown-bench-data-') : undefined;
  const proc = await spawnUntil(
    [CLI, 'serve', '--vault', vault, '--data-dir', dataDir ?? data!.dir, '--port', '0'],
    /taskdown listening on (http:\/\/\S+)/,
  );
  return {
    ...proc,
    url: proc.captured,
    dataDir: dataDir ?? data!.dir,
    cleanup: async () => {
      await proc.stop();
      await data?.cleanup();
    },
  };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

/** Closes the kept-alive sockets so the bench process can exit. */
export function closeConnections(): void {
  agent.destroy();
}

export function request(
  url: string,
  method = 'GET',
  body?: string,
): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method,
        agent,
        headers: body
          ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }
          : {},
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** `pagination.total` of a `GET /api/tasks` answer. */
export async function taskTotal(url: string): Promise<number> {
  const res = await request(`${url}/api/tasks?limit=1`);
  if (res.status !== 200) throw new Error(`GET /api/tasks answered ${res.status}`);
  return (JSON.parse(res.body.toString()) as { data: { pagination: { total: number } } }).data.pagination
    .total;
}

/**
 * CPU time (user + system, ms) a process has used so far. The machine may be shared, so wall-clock
 * figures get a CPU figure beside them that contention does not inflate as much.
 */
export async function cpuMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the file, in clock ticks (100 per second on Linux).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
  return kb / 1024;
}

export interface Cost {
  wall: number;
  cpu: number;
}

/** One cold start; with `dataDir`, a restart on a data dir that already holds the index snapshot. */
async function coldStart(vault: string, expectTotal: number, dataDir?: string): Promise<Cost> {
  const start = process.hrtime.bigint();
  const server = await startServer(vault, dataDir);
  let total: number;
  let cost: Cost;
  try {
    total = await taskTotal(server.url);
    cost = { wall: msSince(start), cpu: await cpuMs(server.child.pid!) };
  } finally {
    await server.cleanup();
  }
  if (total !== expectTotal)
    throw new Error(`first request answered ${total} tasks, expected ${expectTotal}`);
  return cost;
}

/** Waits until a server has written its index snapshot (a few seconds after a first start). */
export async function snapshotWritten(server: Server, timeoutMs: number): Promise<void> {
  const file = path.join(server.dataDir, 'index-snapshot.json');
  const start = process.hrtime.bigint();
  while (!existsSync(file)) {
    if (msSince(start) > timeoutMs)
      throw new Error(`the server wrote no index snapshot within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Runs the server once on `dataDir` until it has written its index snapshot there. */
async function writeSnapshot(vault: string, dataDir: string, timeoutMs: number): Promise<void> {
  const server = await startServer(vault, dataDir);
  try {
    await snapshotWritten(server, timeoutMs);
  } finally {
    await server.cleanup();
  }
}

/**
 * One run of the bare read-and-parse loop: js-yaml, or with `taskdown` the server's frontmatter
 * reader (plain-YAML fast path, js-yaml for the rest).
 */
async function bareScan(vault: string, reader?: 'taskdown'): Promise<Cost> {
  const start = process.hrtime.bigint();
  // The scan reports its own CPU time as it ends (its /proc entry may be gone by then).
  const proc = await spawnUntil([BARE_SCAN, vault, ...(reader ? [reader] : [])], /parsed \d+ cpu (\d+)/);
  const wall = msSince(start);
  await proc.stop();
  return { wall, cpu: Number(proc.captured) };
}

/** p50 of wall-clock and of CPU time. */
function medianCost(costs: Cost[]): Cost {
  return { wall: summarize(costs.map((c) => c.wall)).p50, cpu: summarize(costs.map((c) => c.cpu)).p50 };
}

export interface StartUps {
  /** First start: empty data dir. */
  cold: Cost;
  /** The bare loop parsing with js-yaml. */
  scan: Cost;
  /** The bare loop parsing with the server's frontmatter reader. */
  ownReaderScan: Cost;
  /** Restart: the data dir holds the index snapshot of an earlier run. */
  restart: Cost;
}

/**
 * The four start-ups, `runs` times each, interleaved: a change in the machine's load while the
 * bench runs then moves the server's figures and their baselines alike, instead of the ratio.
 */
export async function startUps(
  vault: string,
  expectTotal: number,
  runs: number,
  snapshotTimeoutMs: number,
): Promise<StartUps> {
  const costs = {
    cold: [] as Cost[],
    scan: [] as Cost[],
    ownReaderScan: [] as Cost[],
    restart: [] as Cost[],
  };
  const kept = await tempDir('taskdown-bench-data-');
  try {
    await writeSnapshot(vault, kept.dir, snapshotTimeoutMs);
    for (let i = 0; i < runs; i++) {
      costs.cold.push(await coldStart(vault, expectTotal));
      costs.scan.push(await bareScan(vault));
      costs.ownReaderScan.push(await bareScan(vault, 'taskdown'));
      costs.restart.push(await coldStart(vault, expectTotal, kept.dir));
    }
  } finally {
    await kept.cleanup();
  }
  return {
    cold: medianCost(costs.cold),
    scan: medianCost(costs.scan),
    ownReaderScan: medianCost(costs.ownReaderScan),
    restart: medianCost(costs.restart),
  };
}

/**
 * Requests per second with CONCURRENCY requests in flight over `ms` after a warm-up, and the
 * server's CPU time per request (µs) over the same window.
 */
export async function throughput(
  url: string,
  pid: number,
  ms = 4_000,
  warmupMs = 1_000,
): Promise<{ rps: number; cpuUs: number }> {
  let done = 0;
  let counting = false;
  let stop = false;
  const worker = async (): Promise<void> => {
    while (!stop) {
      const res = await request(url);
      if (res.status !== 200) throw new Error(`status ${res.status}`);
      if (counting) done++;
    }
  };
  const workers = Array.from({ length: CONCURRENCY }, worker);
  await new Promise((r) => setTimeout(r, warmupMs));
  counting = true;
  const start = process.hrtime.bigint();
  const cpuStart = await cpuMs(pid);
  await new Promise((r) => setTimeout(r, ms));
  const elapsed = msSince(start);
  const cpu = (await cpuMs(pid)) - cpuStart;
  const counted = done;
  stop = true;
  await Promise.all(workers);
  return { rps: (counted / elapsed) * 1000, cpuUs: (cpu * 1000) / counted };
}

/** Sequential POST latency (ms) after a warm-up: p50 and p99, and the server's CPU time per request (ms). */
export async function latency(
  url: string,
  body: string,
  pid: number,
  n = 400,
  warmup = 50,
): Promise<{ p50: number; p99: number; cpu: number }> {
  const samples: number[] = [];
  let cpuStart = 0;
  for (let i = 0; i < warmup + n; i++) {
    if (i === warmup) cpuStart = await cpuMs(pid);
    const start = process.hrtime.bigint();
    const res = await request(url, 'POST', body);
    if (res.status !== 200) throw new Error(`status ${res.status}: ${res.body.toString().slice(0, 200)}`);
    if (i >= warmup) samples.push(msSince(start));
  }
  const cpu = ((await cpuMs(pid)) - cpuStart) / n;
  return { ...summarize(samples), cpu };
}

/** Runs `fn` against a bare node:http server that answers every request with `bytes`. */
export async function withBareServer<T>(bytes: Buffer, fn: (proc: Proc) => Promise<T>): Promise<T> {
  const file = await tempDir('taskdown-bench-bare-');
  await writeFile(path.join(file.dir, 'body.json'), bytes);
  const proc = await spawnUntil(
    [BARE_SERVER, path.join(file.dir, 'body.json')],
    /listening on (http:\/\/\S+)/,
  );
  try {
    return await fn(proc);
  } finally {
    await proc.stop();
    await file.cleanup();
  }
}

/** Write → the API serves the new title, polled every 2 ms; `edits` samples (ms). */
export async function editPickup(url: string, vault: string, edits: number): Promise<number[]> {
  const file = path.join(vault, EDIT_TARGET);
  const id = encodeURIComponent(EDIT_TARGET);
  const samples: number[] = [];
  for (let i = 0; i < edits; i++) {
    const title = `Edited ${i} ${Date.now()}`;
    await writeFile(file, EDIT_TARGET_TEXT(title));
    const start = process.hrtime.bigint();
    for (;;) {
      const res = await request(`${url}/api/tasks/${id}`);
      if (res.status === 200 && res.body.includes(title)) break;
      if (msSince(start) > 5_000) throw new Error('edit not picked up within 5 s');
      await new Promise((r) => setTimeout(r, 2));
    }
    samples.push(msSince(start));
    await new Promise((r) => setTimeout(r, 50));
  }
  return samples;
}

/** Baseline of editPickup: the same writes, observed by a bare fs.watch on the folder. */
export async function bareWatch(vault: string, edits: number): Promise<number[]> {
  const file = path.join(vault, EDIT_TARGET);
  const samples: number[] = [];
  let notify: (() => void) | undefined;
  const watcher = watch(path.dirname(file), () => notify?.());
  try {
    for (let i = 0; i < edits; i++) {
      const seen = new Promise<void>((resolve) => (notify = resolve));
      const start = process.hrtime.bigint();
      await writeFile(file, EDIT_TARGET_TEXT(`Watched ${i}`));
      await seen;
      samples.push(msSince(start));
      notify = undefined;
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    watcher.close();
  }
  return samples;
}
