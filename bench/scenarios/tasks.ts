/**
 * Task serving on a generated 10,000-task vault, each figure beside a baseline measured in the
 * same run on the same machine:
 * - cold start of the built server (`node dist/bin/taskdown.js serve`) to the first answered
 *   request, against a fresh process that only reads and YAML-parses every note (with the parser
 *   the server uses); first start (empty data dir) and restart (index snapshot in the data dir);
 * - `GET /api/tasks?limit=50` throughput (keep-alive, concurrent), against bare node:http
 *   serving the same bytes;
 * - `POST /api/tasks/query` latency for a three-condition filter with a sort, against bare
 *   node:http answering the same request with the same bytes;
 * - external edit → visible through the API, against a bare fs.watch notification;
 * - resident memory of the server after all of that, against the bare server process.
 * Run `npm run build` first: the server is measured as users run it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, watch } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../../test/helpers/temp.js';
import type { Figure, Scenario } from '../lib/report.js';
import { msSince, summarize } from '../lib/stats.js';
import { EDIT_TARGET, EDIT_TARGET_TEXT, generateVault } from '../lib/vault-generator.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = path.join(ROOT, 'dist/bin/taskdown.js');
const BARE_SCAN = path.join(ROOT, 'bench/lib/bare-scan.mjs');
const BARE_SERVER = path.join(ROOT, 'bench/lib/bare-server.mjs');

const COLD_RUNS = 7;
const THROUGHPUT_MS = 4_000;
const WARMUP_MS = 1_000;
const CONCURRENCY = 16;
const QUERY_N = 400;
const QUERY_WARMUP = 50;
const EDITS = 40;

const QUERY = {
  type: 'group',
  id: 'root',
  conjunction: 'and',
  sortKey: 'due',
  sortDirection: 'asc',
  children: [
    { type: 'condition', id: 'c1', property: 'status', operator: 'is-not', value: 'done' },
    { type: 'condition', id: 'c2', property: 'priority', operator: 'is', value: 'high' },
    { type: 'condition', id: 'c3', property: 'tags', operator: 'contains', value: 'work' },
  ],
};

interface Proc {
  child: ChildProcess;
  /** Group 1 of the readiness line: a server's URL, the scan's CPU time. */
  captured: string;
  stop(): Promise<void>;
}

/** Spawns a process and resolves once it prints a line matching `re`. */
function spawnUntil(args: string[], re: RegExp): Promise<Proc> {
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
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
            if (child.exitCode === null) child.kill('SIGTERM');
            await exited;
          },
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code} before ready`)));
  });
}

/** Starts the built server; with `dataDir` the caller owns (and keeps) the data dir. */
async function startServer(
  vault: string,
  dataDir?: string,
): Promise<Proc & { url: string; cleanup(): Promise<void> }> {
  const data = dataDir === undefined ? await tempDir('taskdown-bench-data-') : undefined;
  const proc = await spawnUntil(
    [CLI, 'serve', '--vault', vault, '--data-dir', dataDir ?? data!.dir, '--port', '0'],
    /taskdown listening on (http:\/\/\S+)/,
  );
  return {
    ...proc,
    url: proc.captured,
    cleanup: async () => {
      await proc.stop();
      await data?.cleanup();
    },
  };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function request(url: string, method = 'GET', body?: string): Promise<{ status: number; body: Buffer }> {
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

/**
 * CPU time (user + system, ms) a process has used so far. The machine may be shared, so wall-clock
 * figures get a CPU figure beside them that contention does not inflate as much.
 */
async function cpuMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the file, in clock ticks (100 per second on Linux).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

interface Cost {
  wall: number;
  cpu: number;
}

/** One cold start; with `dataDir`, a restart on a data dir that already holds the index snapshot. */
async function coldStart(vault: string, expectTotal: number, dataDir?: string): Promise<Cost> {
  const start = process.hrtime.bigint();
  const server = await startServer(vault, dataDir);
  const res = await request(`${server.url}/api/tasks?limit=1`);
  const wall = msSince(start);
  const cpu = await cpuMs(server.child.pid!);
  const total = (JSON.parse(res.body.toString()) as { data: { pagination: { total: number } } }).data
    .pagination.total;
  await server.cleanup();
  if (res.status !== 200 || total !== expectTotal) {
    throw new Error(`first request answered ${res.status} with ${total} tasks, expected ${expectTotal}`);
  }
  return { wall, cpu };
}

/** Runs the server once on `dataDir` until it has written its index snapshot there. */
async function writeSnapshot(vault: string, dataDir: string): Promise<void> {
  const server = await startServer(vault, dataDir);
  try {
    const file = path.join(dataDir, 'index-snapshot.json');
    const start = process.hrtime.bigint();
    while (!existsSync(file)) {
      if (msSince(start) > 15_000) throw new Error('the server wrote no index snapshot within 15 s');
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    await server.cleanup();
  }
}

/** One run of the bare read-and-parse loop; `reader` 'taskdown' parses with the server's reader. */
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

/**
 * The four start-ups, COLD_RUNS times each, interleaved: a change in the machine's load while the
 * bench runs then moves the server's figures and their baselines alike, instead of the ratio.
 */
async function startUps(
  vault: string,
  expectTotal: number,
): Promise<{ cold: Cost; scan: Cost; ownReaderScan: Cost; restart: Cost }> {
  const runs = { cold: [] as Cost[], scan: [] as Cost[], ownReaderScan: [] as Cost[], restart: [] as Cost[] };
  const kept = await tempDir('taskdown-bench-data-');
  try {
    await writeSnapshot(vault, kept.dir);
    for (let i = 0; i < COLD_RUNS; i++) {
      runs.cold.push(await coldStart(vault, expectTotal));
      runs.scan.push(await bareScan(vault));
      runs.ownReaderScan.push(await bareScan(vault, 'taskdown'));
      runs.restart.push(await coldStart(vault, expectTotal, kept.dir));
    }
  } finally {
    await kept.cleanup();
  }
  return {
    cold: medianCost(runs.cold),
    scan: medianCost(runs.scan),
    ownReaderScan: medianCost(runs.ownReaderScan),
    restart: medianCost(runs.restart),
  };
}

/**
 * Requests per second with CONCURRENCY requests in flight, after a warm-up, and the server's CPU
 * time per request (µs) over the same window.
 */
async function throughput(url: string, pid: number): Promise<{ rps: number; cpuUs: number }> {
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
  await new Promise((r) => setTimeout(r, WARMUP_MS));
  counting = true;
  const start = process.hrtime.bigint();
  const cpuStart = await cpuMs(pid);
  await new Promise((r) => setTimeout(r, THROUGHPUT_MS));
  const elapsed = msSince(start);
  const cpu = (await cpuMs(pid)) - cpuStart;
  const counted = done;
  stop = true;
  await Promise.all(workers);
  return { rps: (counted / elapsed) * 1000, cpuUs: (cpu * 1000) / counted };
}

/** Sequential POST latency (ms): p50 and p99, and the server's CPU time per request (ms). */
async function latency(
  url: string,
  body: string,
  pid: number,
): Promise<{ p50: number; p99: number; cpu: number }> {
  const samples: number[] = [];
  let cpuStart = 0;
  for (let i = 0; i < QUERY_WARMUP + QUERY_N; i++) {
    if (i === QUERY_WARMUP) cpuStart = await cpuMs(pid);
    const start = process.hrtime.bigint();
    const res = await request(url, 'POST', body);
    if (res.status !== 200) throw new Error(`status ${res.status}: ${res.body.toString().slice(0, 200)}`);
    if (i >= QUERY_WARMUP) samples.push(msSince(start));
  }
  const cpu = ((await cpuMs(pid)) - cpuStart) / QUERY_N;
  return { ...summarize(samples), cpu };
}

async function withBareServer<T>(bytes: Buffer, fn: (proc: Proc) => Promise<T>): Promise<T> {
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

/** Write → the API serves the new title, polled every 2 ms. */
async function editPickup(url: string, vault: string): Promise<number[]> {
  const file = path.join(vault, EDIT_TARGET);
  const id = encodeURIComponent(EDIT_TARGET);
  const samples: number[] = [];
  for (let i = 0; i < EDITS; i++) {
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

/** Baseline: the same writes, observed by a bare fs.watch on the folder. */
async function bareWatch(vault: string): Promise<number[]> {
  const file = path.join(vault, EDIT_TARGET);
  const samples: number[] = [];
  let notify: (() => void) | undefined;
  const watcher = watch(path.dirname(file), () => notify?.());
  try {
    for (let i = 0; i < EDITS; i++) {
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

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
  return kb / 1024;
}

const scenario: Scenario = {
  name: 'tasks (10,000-task vault)',
  async run(): Promise<Figure[]> {
    if (!existsSync(CLI)) throw new Error('dist/bin/taskdown.js is missing: run `npm run build` first');
    const vault = await generateVault();
    const figures: Figure[] = [];

    const { cold, scan, ownReaderScan, restart } = await startUps(vault.dir, vault.taskCount);
    figures.push({
      name: `cold start to first answered request, first start (empty data dir, p50 of ${COLD_RUNS})`,
      value: cold.wall,
      unit: 'ms',
      baseline: { name: 'fresh process reading + YAML-parsing every note', value: scan.wall },
      target: '<= 1000 ms and <= 1.5x baseline',
      pass: cold.wall <= 1000 && cold.wall <= 1.5 * scan.wall,
    });
    figures.push({
      name: `  (for comparison: the bare loop parsing with Taskdown's frontmatter reader, p50 of ${COLD_RUNS})`,
      value: ownReaderScan.wall,
      unit: 'ms',
      baseline: { name: 'the js-yaml bare loop above', value: scan.wall },
    });
    figures.push({
      name: `cold start, first start, CPU time of the process (p50 of ${COLD_RUNS})`,
      value: cold.cpu,
      unit: 'ms',
      baseline: { name: 'same bare scan', value: scan.cpu },
    });
    figures.push({
      name: `cold start to first answered request, restart (index snapshot in the data dir, p50 of ${COLD_RUNS})`,
      value: restart.wall,
      unit: 'ms',
      baseline: { name: 'fresh process reading + YAML-parsing every note', value: scan.wall },
      target: '<= 1000 ms and <= 1.5x baseline',
      pass: restart.wall <= 1000 && restart.wall <= 1.5 * scan.wall,
    });
    figures.push({
      name: `cold start, restart, CPU time of the process (p50 of ${COLD_RUNS})`,
      value: restart.cpu,
      unit: 'ms',
      baseline: { name: 'same bare scan', value: scan.cpu },
    });

    const server = await startServer(vault.dir);
    const original = await readFile(path.join(vault.dir, EDIT_TARGET));
    try {
      const listUrl = `${server.url}/api/tasks?limit=50`;
      const listBytes = (await request(listUrl)).body;
      const served = await throughput(listUrl, server.child.pid!);
      let bareRss = 0;
      const bare = await withBareServer(listBytes, async (proc) => {
        const result = await throughput(`${proc.captured}/api/tasks?limit=50`, proc.child.pid!);
        bareRss = await rssMb(proc.child.pid!);
        return result;
      });
      figures.push({
        name: `GET /api/tasks?limit=50 throughput (${CONCURRENCY} concurrent, keep-alive, ${listBytes.length} bytes)`,
        value: served.rps,
        unit: 'req/s',
        baseline: { name: 'bare node:http serving the same bytes', value: bare.rps },
        target: '>= 70% of baseline',
        pass: served.rps >= 0.7 * bare.rps,
      });
      figures.push({
        name: 'GET /api/tasks?limit=50, server CPU per request',
        value: served.cpuUs,
        unit: 'us',
        baseline: { name: 'bare node:http', value: bare.cpuUs },
      });

      const queryBody = JSON.stringify(QUERY);
      const queryUrl = `${server.url}/api/tasks/query`;
      const queryRes = await request(queryUrl, 'POST', queryBody);
      const matched = (JSON.parse(queryRes.body.toString()) as { data: { filtered: number } }).data.filtered;
      const q = await latency(queryUrl, queryBody, server.child.pid!);
      const qBare = await withBareServer(queryRes.body, (proc) =>
        latency(`${proc.captured}/api/tasks/query`, queryBody, proc.child.pid!),
      );
      figures.push({
        name: `POST /api/tasks/query p50 (3 conditions + sort, ${matched} of ${vault.taskCount} match)`,
        value: q.p50,
        unit: 'ms',
        baseline: { name: 'bare node:http, same request and response bytes', value: qBare.p50 },
      });
      figures.push({
        name: 'POST /api/tasks/query p99',
        value: q.p99,
        unit: 'ms',
        baseline: { name: 'bare node:http, same request and response bytes', value: qBare.p99 },
        target: '<= 20 ms',
        pass: q.p99 <= 20,
      });
      figures.push({
        name: 'POST /api/tasks/query, server CPU per request',
        value: q.cpu,
        unit: 'ms',
        baseline: { name: 'bare node:http', value: qBare.cpu },
      });

      const edits = summarize(await editPickup(server.url, vault.dir));
      const watched = summarize(await bareWatch(vault.dir));
      figures.push({
        name: 'external edit -> served by the API, p50',
        value: edits.p50,
        unit: 'ms',
        baseline: { name: 'bare fs.watch notification', value: watched.p50 },
      });
      figures.push({
        name: 'external edit -> served by the API, p99',
        value: edits.p99,
        unit: 'ms',
        baseline: { name: 'bare fs.watch notification', value: watched.p99 },
        target: '<= 300 ms',
        pass: edits.p99 <= 300,
      });

      const rss = await rssMb(server.child.pid!);
      figures.push({
        name: 'server RSS after the load above',
        value: rss,
        unit: 'MB',
        baseline: { name: 'bare node:http process after its throughput run', value: bareRss },
        target: '<= 150 MB',
        pass: rss <= 150,
      });
      // Context for every wall-clock figure above: runnable processes per core while measuring.
      figures.push({
        name: `machine load (1-min load average / ${os.cpus().length} cores)`,
        value: os.loadavg()[0]! / os.cpus().length,
        unit: 'per core',
      });
    } finally {
      await writeFile(path.join(vault.dir, EDIT_TARGET), original);
      await server.cleanup();
      agent.destroy();
    }
    return figures;
  },
};

export default scenario;
