/**
 * Webhook delivery with the store on: signed deliveries per second to a loopback receiver and
 * event-to-receipt latency, each beside a bare keep-alive POST loop measured in the same run
 * against the same receiver, sending the byte-identical request at the same concurrency (the
 * faster of an undici loop, the client Taskdown uses, and a node:http loop). Deliveries go through
 * the full path: an in-process server, events on the domain bus, the event journal and the
 * pending delivery committed to SQLite, the lane, envelope, HMAC, the keep-alive POST through the
 * address-checked pool, and the batched outcome and counter writes.
 *
 * Also printed: bytes written to the store per delivery (write amplification), and the start of
 * the built executable with a full delivery log (10,000 records) beside one with an empty store.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent } from 'undici';
import { startServer, type RunningServer } from '../../src/app.js';
import { MAX_IN_FLIGHT } from '../../src/core/webhooks/engine.js';
import { signTaskdown } from '../../src/core/webhooks/signer.js';
import { localConfig } from '../../test/helpers/in-process-server.js';
import { tempDir } from '../../test/helpers/temp.js';
import type { Figure, Scenario } from '../lib/report.js';
import { summarize } from '../lib/stats.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = path.join(ROOT, 'dist/bin/taskdown.js');

/**
 * Both sides are measured in alternating rounds, and each figure is the median round, so a
 * burst of load from another process skews one round rather than one side.
 */
const ROUNDS = 7;
const THROUGHPUT_N = 4_000;
const LATENCY_N = 300;
const WARMUP_N = 4_000;
/** One webhook's attempts in flight at most; the bare loops use the same. */
const CONCURRENCY = MAX_IN_FLIGHT;
/** Events emitted ahead of receipts: enough to keep every connection busy. */
const WINDOW = 2 * CONCURRENCY;
const STARTS = 5;

const task = {
  id: 'TaskNotes/Tasks/Review quarterly report.md',
  path: 'TaskNotes/Tasks/Review quarterly report.md',
  title: 'Review quarterly report',
  status: 'open',
  priority: 'high',
  archived: false,
  due: '2026-02-01',
  scheduled: '2026-01-20',
  tags: ['task', 'work'],
  contexts: ['office'],
  projects: ['[[Quarterly review]]'],
  timeEstimate: 90,
  totalTrackedTime: 0,
  isBlocked: false,
  isBlocking: false,
  dateCreated: '2026-01-15T09:00:00.000Z',
  dateModified: '2026-01-15T09:00:00.000Z',
};

interface BenchReceiver {
  url: string;
  received: number;
  /** Called with the receipt time (body fully read) of each request. */
  onReceipt: ((at: bigint) => void) | undefined;
  /** Bytes read and written on the receiver's sockets so far (the senders' traffic). */
  socketBytes(): number;
  close(): Promise<void>;
}

async function startBenchReceiver(): Promise<BenchReceiver> {
  const sockets = new Set<Socket>();
  let closedBytes = 0;
  const state: BenchReceiver = {
    url: '',
    received: 0,
    onReceipt: undefined,
    socketBytes: () => {
      let total = closedBytes;
      for (const s of sockets) total += s.bytesRead + s.bytesWritten;
      return total;
    },
    close: async () => {},
  };
  const server = http.createServer((req, res) => {
    req.on('data', () => {});
    req.on('end', () => {
      const at = process.hrtime.bigint();
      state.received++;
      state.onReceipt?.(at);
      res.writeHead(200, { 'content-length': '0' });
      res.end();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      closedBytes += socket.bytesRead + socket.bytesWritten;
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}

/** Bytes this process has passed to write system calls so far (Linux). */
function bytesWritten(): number {
  return Number(/^wchar: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'))?.[1]);
}

const median = (values: number[]): number => summarize(values).p50;

const waitUntil = async (check: () => boolean): Promise<void> => {
  while (!check()) await new Promise((r) => setImmediate(r));
};

type Post = () => Promise<void>;

/** The byte-identical request a delivery makes, on a plain keep-alive pool of each client. */
function barePosts(receiver: BenchReceiver, body: Buffer, headers: Record<string, string>) {
  const url = new URL(receiver.url);
  const nodeAgent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const undiciAgent = new Agent({ connections: CONCURRENCY });
  const viaNode: Post = () =>
    new Promise((resolve, reject) => {
      const req = http.request(url, { method: 'POST', agent: nodeAgent, headers });
      req.on('error', reject);
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve());
      });
      req.end(body);
    });
  const viaUndici: Post = async () => {
    const res = await undiciAgent.request({
      origin: url.origin,
      path: url.pathname,
      method: 'POST',
      headers,
      body,
    });
    await res.body.dump();
  };
  return {
    viaNode,
    viaUndici,
    close: async () => {
      nodeAgent.destroy();
      await undiciAgent.close();
    },
  };
}

async function bareThroughput(receiver: BenchReceiver, post: Post, n: number): Promise<number> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < n) {
      next++;
      await post();
    }
  };
  const start = receiver.received;
  const t0 = process.hrtime.bigint();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  await waitUntil(() => receiver.received - start >= n);
  return n / (Number(process.hrtime.bigint() - t0) / 1e9);
}

async function bareLatency(receiver: BenchReceiver, post: Post, n: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    let at = 0n;
    receiver.onReceipt = (t) => (at = t);
    await post();
    samples.push(Number(at - t0) / 1e6);
  }
  receiver.onReceipt = undefined;
  return samples;
}

function emit(server: RunningServer): void {
  server.services.events.emit('task.created', { task });
}

async function webhookThroughput(server: RunningServer, receiver: BenchReceiver, n: number): Promise<number> {
  const start = receiver.received;
  const t0 = process.hrtime.bigint();
  let sent = 0;
  while (receiver.received - start < n) {
    while (sent < n && sent - (receiver.received - start) < WINDOW) {
      emit(server);
      sent++;
    }
    await new Promise((r) => setImmediate(r));
  }
  return n / (Number(process.hrtime.bigint() - t0) / 1e9);
}

async function webhookLatency(server: RunningServer, receiver: BenchReceiver, n: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const receipt = new Promise<bigint>((resolve) => (receiver.onReceipt = resolve));
    const t0 = process.hrtime.bigint();
    emit(server);
    samples.push(Number((await receipt) - t0) / 1e6);
  }
  receiver.onReceipt = undefined;
  return samples;
}

/** Milliseconds from spawning the built server to its first answered request. */
async function timedStart(vault: string, dataDir: string): Promise<number> {
  const t0 = process.hrtime.bigint();
  const child = spawn(
    process.execPath,
    [CLI, 'serve', '--vault', vault, '--data-dir', dataDir, '--port', '0'],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, TASKDOWN_LOG_LEVEL: 'warn' },
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const m = /taskdown listening on (\S+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  const res = await fetch(`${url}/api/webhooks/deliveries?limit=1`);
  await res.arrayBuffer();
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  child.kill('SIGTERM');
  await exited;
  return ms;
}

const scenario: Scenario = {
  name: 'webhooks',
  async run(): Promise<Figure[]> {
    const vault = await tempDir('taskdown-bench-vault-');
    const data = await tempDir('taskdown-bench-data-');
    const empty = await tempDir('taskdown-bench-empty-');
    const receiver = await startBenchReceiver();
    const server = await startServer(localConfig(vault.dir, data.dir));
    let closed = false;
    try {
      const { secret } = await server.services.webhooks.create({
        url: receiver.url,
        events: ['task.created'],
      });
      // The bare loops send exactly what a delivery sends.
      const body = Buffer.from(
        JSON.stringify({
          event: 'task.created',
          timestamp: new Date().toISOString(),
          vault: server.services.vaultInfo,
          data: { task },
        }),
      );
      const headers = {
        'Content-Type': 'application/json',
        'X-Service-Event': 'task.created',
        'X-Service-Signature': signTaskdown(secret, body.toString('utf8')),
        'X-Service-Delivery-ID': 'del_1768467600000_0123456789',
        'Content-Length': String(body.length),
      };
      const bare = barePosts(receiver, body, headers);

      await webhookThroughput(server, receiver, WARMUP_N);
      await bareThroughput(receiver, bare.viaNode, WARMUP_N);
      await bareThroughput(receiver, bare.viaUndici, WARMUP_N);

      const nodeRates: number[] = [];
      const undiciRates: number[] = [];
      const hookRates: number[] = [];
      const bareSamples: number[] = [];
      const hookSamples: number[] = [];
      let storeBytes = 0;
      let bareOtherBytes = 0;
      let delivered = 0;
      for (let round = 0; round < ROUNDS; round++) {
        let w0 = bytesWritten();
        let s0 = receiver.socketBytes();
        nodeRates.push(await bareThroughput(receiver, bare.viaNode, THROUGHPUT_N));
        bareOtherBytes += bytesWritten() - w0 - (receiver.socketBytes() - s0);
        undiciRates.push(await bareThroughput(receiver, bare.viaUndici, THROUGHPUT_N));
        w0 = bytesWritten();
        s0 = receiver.socketBytes();
        hookRates.push(await webhookThroughput(server, receiver, THROUGHPUT_N));
        // Let the last outcome batch reach the store before counting.
        await new Promise((r) => setTimeout(r, 20));
        storeBytes += bytesWritten() - w0 - (receiver.socketBytes() - s0);
        delivered += THROUGHPUT_N;
        bareSamples.push(...(await bareLatency(receiver, bare.viaUndici, LATENCY_N)));
        hookSamples.push(...(await webhookLatency(server, receiver, LATENCY_N)));
      }
      await bare.close();
      const bareRate = Math.max(median(nodeRates), median(undiciRates));
      const bareName = median(nodeRates) > median(undiciRates) ? 'node:http' : 'undici';
      const hookRate = median(hookRates);
      const bareLat = summarize(bareSamples);
      const hookLat = summarize(hookSamples);

      const failed = server.services.webhooks.deliveries({ status: 'failed', limit: 1 }).deliveries.length;
      const hook = server.services.webhooks.list()[0];
      if (failed > 0 || (hook?.failureCount ?? 0) > 0) {
        throw new Error(`benchmark deliveries failed: ${hook?.failureCount} failed deliveries`);
      }
      const logged = server.services.webhooks.deliveries({ limit: 1000 }).hasMore;
      await server.close();
      closed = true;
      if (!logged) throw new Error('the delivery log should hold more than 1,000 records by now');

      // Start-up with the full log (retention keeps ~10,000 records) beside an empty store.
      const withLog: number[] = [];
      const withoutLog: number[] = [];
      for (let i = 0; i < STARTS; i++) {
        withLog.push(await timedStart(vault.dir, data.dir));
        withoutLog.push(await timedStart(vault.dir, empty.dir));
      }
      const startLog = median(withLog);
      const startEmpty = median(withoutLog);

      return [
        {
          name: `signed deliveries per second (median of ${ROUNDS} rounds of ${THROUGHPUT_N}, ${CONCURRENCY} in flight, store on)`,
          value: hookRate,
          unit: 'deliveries/s',
          baseline: {
            name: `bare keep-alive POST loop, ${bareName} (the faster of undici and node:http)`,
            value: bareRate,
          },
          target: '>= 2000/s and >= 60% of the bare loop',
          pass: hookRate >= 2000 && hookRate >= 0.6 * bareRate,
        },
        {
          name: 'bare loop, the other client',
          value: Math.min(median(nodeRates), median(undiciRates)),
          unit: 'requests/s',
        },
        {
          name: 'event-to-receipt latency p50',
          value: hookLat.p50,
          unit: 'ms',
          baseline: { name: 'bare POST p50', value: bareLat.p50 },
          target: '<= 5 ms',
          pass: hookLat.p50 <= 5,
        },
        {
          name: 'event-to-receipt latency p99',
          value: hookLat.p99,
          unit: 'ms',
          baseline: { name: 'bare POST p99', value: bareLat.p99 },
        },
        {
          name: 'bytes written to the store per delivery (journal, delivery, outcome, WAL checkpoints)',
          value: storeBytes / delivered,
          unit: 'bytes',
          baseline: {
            name: 'bare loop: bytes written beside its sockets',
            value: Math.max(1, bareOtherBytes / delivered),
          },
        },
        {
          name: `start of the built server to its first answer, 10,000-record delivery log (median of ${STARTS})`,
          value: startLog,
          unit: 'ms',
          baseline: { name: 'same, empty store', value: startEmpty },
          target: '<= 1 s (the task bench target)',
          pass: startLog <= 1000,
        },
      ];
    } finally {
      if (!closed) await server.close();
      await receiver.close();
      await vault.cleanup();
      await data.cleanup();
      await empty.cleanup();
    }
  },
};

export default scenario;
