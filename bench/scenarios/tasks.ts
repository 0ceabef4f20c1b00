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
import os from 'node:os';
import path from 'node:path';
import { readFile, writeFile } from 'node:fs/promises';
import type { Figure, Scenario } from '../lib/report.js';
import {
  assertBuilt,
  bareWatch,
  closeConnections,
  CONCURRENCY,
  editPickup,
  latency,
  request,
  rssMb,
  startServer,
  startUps,
  throughput,
  withBareServer,
} from '../lib/server.js';
import { summarize } from '../lib/stats.js';
import { EDIT_TARGET, generateVault } from '../lib/vault-generator.js';

const COLD_RUNS = 7;
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

const scenario: Scenario = {
  name: 'tasks (10,000-task vault)',
  async run(): Promise<Figure[]> {
    assertBuilt();
    const vault = await generateVault();
    const figures: Figure[] = [];

    const { cold, scan, ownReaderScan, restart } = await startUps(
      vault.dir,
      vault.taskCount,
      COLD_RUNS,
      15_000,
    );
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

      const edits = summarize(await editPickup(server.url, vault.dir, EDITS));
      const watched = summarize(await bareWatch(vault.dir, EDITS));
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
      closeConnections();
    }
    return figures;
  },
};

export default scenario;
