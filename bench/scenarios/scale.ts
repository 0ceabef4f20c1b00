/**
 * Task serving on a generated 100,000-task vault (the tasks bench's generator and frontmatter,
 * fixed seed, cached in bench/.cache), each figure beside a baseline measured in the same run:
 * - first start to the first answer, against the bare read+parse loop (js-yaml; the loop with the
 *   server's own frontmatter reader is printed beside it: the plain-YAML reader's gain);
 * - restart with the data dir kept (index snapshot), which must not read unchanged notes;
 * - a selective query (about 1 % match) and a broad one paged with `limit: 50`, p50/p99, against
 *   bare node:http answering the same bytes;
 * - `GET /api/tasks?limit=50` throughput, against bare node:http;
 * - external edit → served, against a bare fs.watch notification; resident memory after the load;
 * - bursts by another program: 5,000 notes written within half a second, then their folder
 *   deleted; how long until the API serves all of it, against a bare watch-read-parse loop, and
 *   the longest `GET /api/health` wait meanwhile, against the longest wait of an idle server;
 * - the plain-YAML reader's gain: CPU time of one cold pass over every note's frontmatter as the
 *   server parses it, against the same pass without that reader (js-yaml and a structured clone).
 * Run `npm run build` first: the server is measured as users run it. BENCH_RUNS overrides the
 * number of interleaved start-ups; SCALE_PARTS=starts,load,bursts,reader picks parts.
 */
import { spawn } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { tempDir } from '../../test/helpers/temp.js';
import type { Figure, Scenario } from '../lib/report.js';
import {
  assertBuilt,
  bareWatch,
  closeConnections,
  CONCURRENCY,
  cpuMs,
  editPickup,
  latency,
  request,
  ROOT,
  rssMb,
  snapshotWritten,
  spawnUntil,
  startServer,
  startUps,
  taskTotal,
  throughput,
  withBareServer,
  type Server,
} from '../lib/server.js';
import { summarize } from '../lib/stats.js';
import { burstNotes, EDIT_TARGET, generateVault, type GeneratedVault } from '../lib/vault-generator.js';

const TASKS = 100_000;
const COLD_RUNS = Number(process.env.BENCH_RUNS ?? 5);
const EDITS = 40;
const BURST_NOTES = 5_000;
const BURST_SPREAD_MS = 500;
const BURST_FOLDER = 'Burst';
const BURST_WRITER = path.join(ROOT, 'bench/lib/burst-writer.mjs');
const BARE_BURST_WATCH = path.join(ROOT, 'bench/lib/bare-burst-watch.mjs');
const FRONTMATTER_PASS = path.join(ROOT, 'bench/lib/frontmatter-pass.mjs');
const READER_RUNS = 5;
/** How often the bench asks during a burst: the task total (is all of it served?) and health. */
const TOTAL_POLL_MS = 20;
const HEALTH_POLL_MS = 10;

const condition = (id: string, property: string, operator: string, value: string) => ({
  type: 'condition',
  id,
  property,
  operator,
  value,
});

/** About 1 % of the generated tasks: open, high priority, to do on the phone. */
const SELECTIVE = {
  type: 'group',
  id: 'root',
  conjunction: 'and',
  sortKey: 'due',
  sortDirection: 'asc',
  children: [
    condition('c1', 'status', 'is', 'open'),
    condition('c2', 'priority', 'is', 'high'),
    condition('c3', 'contexts', 'contains', '@phone'),
  ],
};

/** Most tasks (everything not done), sorted by due date, first page of 50. */
const BROAD = {
  type: 'group',
  id: 'root',
  conjunction: 'and',
  sortKey: 'due',
  sortDirection: 'asc',
  limit: 50,
  offset: 0,
  children: [condition('c1', 'status', 'is-not', 'done')],
};

const now = (): number => performance.timeOrigin + performance.now();
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface BurstResult {
  /** From the writer's first change until the API served all of it (ms). */
  served: number;
  /** How long the writer took. */
  writing: number;
  /** Longest and p99 wait for `GET /api/health` from the writer's start until served. */
  healthMax: number;
  healthP99: number;
  /** Server CPU time over the burst (ms). */
  cpu: number;
}

/** Runs the burst writer (`write <notes.json> <spreadMs>` or `delete <folder>`); resolves at its start. */
async function startWriter(args: string[]): Promise<{ start: number; done: Promise<number> }> {
  const child = spawn(process.execPath, [BURST_WRITER, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  let onStart: (t: number) => void;
  let onDone: (t: number) => void;
  const started = new Promise<number>((r) => (onStart = r));
  const done = new Promise<number>((resolve, reject) => {
    onDone = resolve;
    child.once('exit', (code) =>
      code === 0 ? undefined : reject(new Error(`burst writer exited with ${code}`)),
    );
  });
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    const s = /start ([\d.]+)/.exec(out);
    if (s) onStart(Number(s[1]));
    const d = /done ([\d.]+)/.exec(out);
    if (d) onDone(Number(d[1]));
  });
  return { start: await started, done };
}

/** Sequential `GET /api/health` every HEALTH_POLL_MS until `stop()`; the waits (ms). */
function pollHealth(url: string): { stop(): Promise<number[]> } {
  const waits: number[] = [];
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const t = now();
      const res = await request(`${url}/api/health`);
      if (res.status !== 200) throw new Error(`health answered ${res.status}`);
      waits.push(now() - t);
      await sleep(HEALTH_POLL_MS);
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await loop;
      return waits;
    },
  };
}

/**
 * One burst against the server: `change` starts the writer; done when the task total is `expect`
 * and `check` (e.g. the last note served) holds.
 */
async function burst(
  server: Server,
  expect: number,
  change: () => Promise<{ start: number; done: Promise<number> }>,
  check: () => Promise<boolean>,
): Promise<BurstResult> {
  const cpuStart = await cpuMs(server.child.pid!);
  const health = pollHealth(server.url);
  await sleep(50);
  const writer = await change();
  let servedAt: number | undefined;
  while (servedAt === undefined) {
    if (now() - writer.start > 30_000) throw new Error('burst not served within 30 s');
    if ((await taskTotal(server.url)) === expect && (await check())) servedAt = now();
    else await sleep(TOTAL_POLL_MS);
  }
  const doneAt = await writer.done;
  const waits = summarize(await health.stop());
  return {
    served: servedAt - writer.start,
    writing: doneAt - writer.start,
    healthMax: waits.max,
    healthP99: waits.p99,
    cpu: (await cpuMs(server.child.pid!)) - cpuStart,
  };
}

/** Baseline of a burst: the same writer against a bare watch-read-parse loop on a temp folder. */
async function bareBurst(
  notes: Array<{ rel: string; text: string }>,
): Promise<{ write: number; remove: number }> {
  const tmp = await tempDir('taskdown-bench-burst-');
  try {
    const folder = path.join(tmp.dir, BURST_FOLDER);
    await mkdir(folder);
    const list = path.join(tmp.dir, 'notes.json');
    await writeFile(
      list,
      JSON.stringify(notes.map((n) => ({ abs: path.join(tmp.dir, n.rel), text: n.text }))),
    );
    const run = async (args: string[], watchArgs: string[]): Promise<number> => {
      const watcher = await spawnUntil([BARE_BURST_WATCH, folder, ...watchArgs], /ready/);
      const seen = new Promise<number>((resolve) => {
        let out = '';
        watcher.child.stdout!.on('data', (chunk: string) => {
          out += chunk;
          const m = /all ([\d.]+)/.exec(out);
          if (m) resolve(Number(m[1]));
        });
      });
      const writer = await startWriter(args);
      const all = await seen;
      await writer.done;
      await watcher.stop();
      return all - writer.start;
    };
    const write = await run(['write', list, String(BURST_SPREAD_MS)], ['write', String(notes.length)]);
    const remove = await run(['delete', folder], ['delete']);
    return { write, remove };
  } finally {
    await tmp.cleanup();
  }
}

/** The longest `GET /api/health` wait of the idle server over two seconds (baseline of the bursts). */
async function idleHealth(url: string): Promise<number> {
  const health = pollHealth(url);
  await sleep(2_000);
  return summarize(await health.stop()).max;
}

const load = (): string => `load ${os.loadavg()[0]!.toFixed(1)}`;
const progress = (step: string): void => console.error(`  … ${step} (${load()})`);

async function startUpFigures(vault: GeneratedVault): Promise<Figure[]> {
  progress(`${COLD_RUNS} first starts, restarts and bare loops, interleaved`);
  const { cold, scan, ownReaderScan, restart } = await startUps(
    vault.dir,
    vault.taskCount,
    COLD_RUNS,
    120_000,
  );
  return [
    {
      name: `first start to first answer (empty data dir, p50 of ${COLD_RUNS}; ${load()})`,
      value: cold.wall,
      unit: 'ms',
      baseline: { name: 'bare loop reading + YAML-parsing every note (js-yaml)', value: scan.wall },
      target: '<= 1.5x baseline',
      pass: cold.wall <= 1.5 * scan.wall,
    },
    {
      name: `  the bare loop parsing with Taskdown's frontmatter reader (plain-YAML reader, p50 of ${COLD_RUNS})`,
      value: ownReaderScan.wall,
      unit: 'ms',
      baseline: { name: 'the js-yaml bare loop above', value: scan.wall },
    },
    {
      name: '  the same, CPU time',
      value: ownReaderScan.cpu,
      unit: 'ms',
      baseline: { name: 'the js-yaml bare loop', value: scan.cpu },
    },
    {
      name: `first start, CPU time of the process (p50 of ${COLD_RUNS})`,
      value: cold.cpu,
      unit: 'ms',
      baseline: { name: 'the js-yaml bare loop', value: scan.cpu },
    },
    {
      name: `restart to first answer (data dir kept, p50 of ${COLD_RUNS}; ${load()})`,
      value: restart.wall,
      unit: 'ms',
      baseline: { name: 'the js-yaml bare loop', value: scan.wall },
      target: '<= 1500 ms',
      pass: restart.wall <= 1500,
    },
    {
      name: `restart, CPU time of the process (p50 of ${COLD_RUNS})`,
      value: restart.cpu,
      unit: 'ms',
      baseline: { name: 'the js-yaml bare loop', value: scan.cpu },
    },
  ];
}

/** Queries, list throughput and edits against a running server, then its resident memory. */
async function loadFigures(server: Server, vault: GeneratedVault): Promise<Figure[]> {
  const figures: Figure[] = [];
  const pid = server.child.pid!;
  progress('queries');
  for (const [label, query, target] of [
    ['selective query', SELECTIVE, 25],
    ['broad query, limit 50', BROAD, 50],
  ] as const) {
    const body = JSON.stringify(query);
    const url = `${server.url}/api/tasks/query`;
    const first = await request(url, 'POST', body);
    if (first.status !== 200) throw new Error(`query answered ${first.status}: ${first.body.toString()}`);
    const matched = (JSON.parse(first.body.toString()) as { data: { filtered: number } }).data.filtered;
    const q = await latency(url, body, pid);
    const bare = await withBareServer(first.body, (proc) =>
      latency(`${proc.captured}/api/tasks/query`, body, proc.child.pid!),
    );
    const what = `POST /api/tasks/query, ${label} (${matched} of ${vault.taskCount} match)`;
    figures.push({
      name: `${what} p50`,
      value: q.p50,
      unit: 'ms',
      baseline: { name: 'bare node:http, same request and response bytes', value: bare.p50 },
    });
    figures.push({
      name: `${what} p99 (${load()})`,
      value: q.p99,
      unit: 'ms',
      baseline: { name: 'bare node:http, same request and response bytes', value: bare.p99 },
      target: `<= ${target} ms`,
      pass: q.p99 <= target,
    });
    figures.push({
      name: `${what}, server CPU per request`,
      value: q.cpu,
      unit: 'ms',
      baseline: { name: 'bare node:http', value: bare.cpu },
    });
  }

  progress('list throughput, edits');
  const listUrl = `${server.url}/api/tasks?limit=50`;
  const listBytes = (await request(listUrl)).body;
  const served = await throughput(listUrl, pid);
  let bareRss = 0;
  const bare = await withBareServer(listBytes, async (proc) => {
    const result = await throughput(`${proc.captured}/api/tasks?limit=50`, proc.child.pid!);
    bareRss = await rssMb(proc.child.pid!);
    return result;
  });
  figures.push({
    name: `GET /api/tasks?limit=50 throughput (${CONCURRENCY} concurrent, keep-alive; ${load()})`,
    value: served.rps,
    unit: 'req/s',
    baseline: { name: 'bare node:http serving the same bytes', value: bare.rps },
  });

  const edits = summarize(await editPickup(server.url, vault.dir, EDITS));
  const watched = summarize(await bareWatch(vault.dir, EDITS));
  figures.push({
    name: `external edit -> served by the API, p99 (p50 ${edits.p50.toFixed(0)} ms; ${load()})`,
    value: edits.p99,
    unit: 'ms',
    baseline: { name: 'bare fs.watch notification', value: watched.p99 },
    target: '<= 300 ms',
    pass: edits.p99 <= 300,
  });

  const rss = await rssMb(pid);
  figures.push({
    name: 'server RSS after the load above',
    value: rss,
    unit: 'MB',
    baseline: { name: 'bare node:http process after its throughput run', value: bareRss },
    target: '<= 400 MB',
    pass: rss <= 400,
  });
  return figures;
}

/** The two bursts against a running server (its vault gets the burst folder, and loses it). */
async function burstFigures(server: Server, vault: GeneratedVault): Promise<Figure[]> {
  progress('bursts');
  const figures: Figure[] = [];
  const burstDir = path.join(vault.dir, BURST_FOLDER);
  // The folder exists (and is watched) before the notes arrive.
  const notes = burstNotes(BURST_FOLDER, BURST_NOTES);
  const bareBursts = await bareBurst(notes);
  // Not while the server writes its index snapshot (once, a few seconds after a first start).
  await snapshotWritten(server, 120_000);
  await mkdir(burstDir);
  await sleep(500);
  const idle = await idleHealth(server.url);
  const tmp = await tempDir('taskdown-bench-burst-');
  try {
    const list = path.join(tmp.dir, 'notes.json');
    await writeFile(
      list,
      JSON.stringify(notes.map((n) => ({ abs: path.join(vault.dir, n.rel), text: n.text }))),
    );
    const lastId = encodeURIComponent(notes[notes.length - 1]!.rel);
    const written = await burst(
      server,
      vault.taskCount + BURST_NOTES,
      () => startWriter(['write', list, String(BURST_SPREAD_MS)]),
      async () => (await request(`${server.url}/api/tasks/${lastId}`)).status === 200,
    );
    const removed = await burst(
      server,
      vault.taskCount,
      () => startWriter(['delete', burstDir]),
      async () => (await request(`${server.url}/api/tasks/${lastId}`)).status === 404,
    );
    for (const [label, result, baseline] of [
      [`${BURST_NOTES} notes written by another program`, written, bareBursts.write],
      [`a folder of ${BURST_NOTES} notes deleted by another program`, removed, bareBursts.remove],
    ] as const) {
      figures.push({
        name: `${label} (in ${result.writing.toFixed(0)} ms) -> all served (server CPU ${result.cpu} ms; ${load()})`,
        value: result.served,
        unit: 'ms',
        baseline: { name: 'bare fs.watch + read + js-yaml of each note', value: baseline },
        target: '<= 2000 ms',
        pass: result.served <= 2000,
      });
      figures.push({
        name: `  longest GET /api/health wait meanwhile (p99 ${result.healthP99.toFixed(1)} ms)`,
        value: result.healthMax,
        unit: 'ms',
        baseline: { name: 'longest wait of the idle server over 2 s', value: idle },
        target: '<= 200 ms',
        pass: result.healthMax <= 200,
      });
    }
  } finally {
    await tmp.cleanup();
  }
  return figures;
}

/** CPU time (ms) of one cold pass over every frontmatter block, parsed as `mode` says. */
async function frontmatterPass(vault: string, mode: 'taskdown' | 'js-yaml'): Promise<number> {
  const proc = await spawnUntil([FRONTMATTER_PASS, vault, mode], /parsed \d+ cpu (\d+)/);
  await proc.stop();
  return Number(proc.captured);
}

/** The plain-YAML reader against parsing without it, alternating, p50 of READER_RUNS each. */
async function readerFigures(vault: GeneratedVault): Promise<Figure[]> {
  progress(`${READER_RUNS} frontmatter passes with and without the plain-YAML reader, alternating`);
  const own: number[] = [];
  const without: number[] = [];
  for (let i = 0; i < READER_RUNS; i++) {
    own.push(await frontmatterPass(vault.dir, 'taskdown'));
    without.push(await frontmatterPass(vault.dir, 'js-yaml'));
  }
  return [
    {
      name: `frontmatter of every note parsed as the server does (plain-YAML reader), CPU, p50 of ${READER_RUNS} (${load()})`,
      value: summarize(own).p50,
      unit: 'ms',
      baseline: {
        name: 'the same without the reader: js-yaml + structured clone',
        value: summarize(without).p50,
      },
    },
  ];
}

/** SCALE_PARTS (comma-separated: starts, load, bursts, reader) runs only those parts; all by default. */
const PARTS = new Set(
  (process.env.SCALE_PARTS ?? 'starts,load,bursts,reader').split(',').map((p) => p.trim()),
);

const scenario: Scenario = {
  name: `scale (${TASKS.toLocaleString('en')}-task vault)`,
  async run(): Promise<Figure[]> {
    assertBuilt();
    const vault = await generateVault(TASKS);
    const burstDir = path.join(vault.dir, BURST_FOLDER);
    // Left behind by an interrupted run, it would change every count below.
    await rm(burstDir, { recursive: true, force: true });
    const figures: Figure[] = [];
    if (PARTS.has('starts')) figures.push(...(await startUpFigures(vault)));
    if (PARTS.has('reader')) figures.push(...(await readerFigures(vault)));
    if (PARTS.has('load') || PARTS.has('bursts')) {
      const server = await startServer(vault.dir);
      const original = await readFile(path.join(vault.dir, EDIT_TARGET));
      try {
        if (PARTS.has('load')) figures.push(...(await loadFigures(server, vault)));
        if (PARTS.has('bursts')) figures.push(...(await burstFigures(server, vault)));
      } finally {
        await rm(burstDir, { recursive: true, force: true });
        await writeFile(path.join(vault.dir, EDIT_TARGET), original);
        await server.cleanup();
        closeConnections();
      }
    }
    figures.push({
      name: `machine load (1-min load average / ${os.cpus().length} cores)`,
      value: os.loadavg()[0]! / os.cpus().length,
      unit: 'per core',
    });
    return figures;
  },
};

export default scenario;
