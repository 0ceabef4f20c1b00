/**
 * Webhook delivery: signed deliveries per second to a loopback receiver and event-to-receipt
 * latency, each beside a bare keep-alive POST loop measured in the same run against the same
 * receiver, sending the byte-identical request at the same concurrency. Deliveries go through
 * the full stack: an in-process server, events on the domain bus, matching, envelope, HMAC, the
 * delivery log, counters and their coalesced persistence.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startServer, type RunningServer } from '../../src/app.js';
import { DEFAULT_RETENTION } from '../../src/core/store/event-journal.js';
import { sign } from '../../src/core/webhooks/signer.js';
import { tempDir } from '../../test/helpers/temp.js';
import type { Figure, Scenario } from '../lib/report.js';
import { summarize } from '../lib/stats.js';

/**
 * Both sides are measured in alternating rounds, and each figure is the median round, so a
 * burst of load from another process skews one round rather than one side.
 */
const ROUNDS = 7;
const THROUGHPUT_N = 4_000;
const LATENCY_N = 300;
const WARMUP_N = 4_000;
/** The engine's default in-flight limit; the bare loop uses the same. */
const CONCURRENCY = 64;
/** Events emitted ahead of receipts: enough to keep every connection busy. */
const WINDOW = 2 * CONCURRENCY;

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
  close(): Promise<void>;
}

async function startBenchReceiver(): Promise<BenchReceiver> {
  const state: BenchReceiver = { url: '', received: 0, onReceipt: undefined, close: async () => {} };
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

const median = (values: number[]): number => summarize(values).p50;

const waitUntil = async (check: () => boolean): Promise<void> => {
  while (!check()) await new Promise((r) => setImmediate(r));
};

/**
 * Bare baseline: the byte-identical request a delivery makes (same body, same headers with a
 * precomputed signature) on a plain keep-alive agent, so the ratio is the engine's own cost.
 */
function barePost(agent: http.Agent, url: URL, body: Buffer, headers: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent, headers });
    req.on('error', reject);
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve());
    });
    req.end(body);
  });
}

async function bareThroughput(
  receiver: BenchReceiver,
  body: Buffer,
  headers: Record<string, string>,
  n: number,
): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const url = new URL(receiver.url);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < n) {
      next++;
      await barePost(agent, url, body, headers);
    }
  };
  const start = receiver.received;
  const t0 = process.hrtime.bigint();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  await waitUntil(() => receiver.received - start >= n);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  agent.destroy();
  return n / seconds;
}

async function bareLatency(
  receiver: BenchReceiver,
  body: Buffer,
  headers: Record<string, string>,
  n: number,
): Promise<number[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL(receiver.url);
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    let at = 0n;
    receiver.onReceipt = (t) => (at = t);
    await barePost(agent, url, body, headers);
    samples.push(Number(at - t0) / 1e6);
  }
  receiver.onReceipt = undefined;
  agent.destroy();
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

const scenario: Scenario = {
  name: 'webhooks',
  async run(): Promise<Figure[]> {
    const vault = await tempDir('taskdown-bench-vault-');
    const data = await tempDir('taskdown-bench-data-');
    const receiver = await startBenchReceiver();
    const server = await startServer({
      vault: vault.dir,
      dataDir: data.dir,
      host: '127.0.0.1',
      port: 0,
      token: null,
      logLevel: 'silent',
      webhookTimeoutMs: 15_000,
      retention: DEFAULT_RETENTION,
    });
    try {
      const { secret } = await server.services.webhooks.create({
        url: receiver.url,
        events: ['task.created'],
      });
      // The bare loop sends exactly what a delivery sends.
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
        'X-Service-Signature': sign(secret, body),
        'X-Service-Delivery-ID': 'del_1768467600000_0123456789',
        'Content-Length': String(body.length),
      };

      await webhookThroughput(server, receiver, WARMUP_N);
      await bareThroughput(receiver, body, headers, WARMUP_N);

      const bareRates: number[] = [];
      const hookRates: number[] = [];
      const bareSamples: number[] = [];
      const hookSamples: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        bareRates.push(await bareThroughput(receiver, body, headers, THROUGHPUT_N));
        hookRates.push(await webhookThroughput(server, receiver, THROUGHPUT_N));
        bareSamples.push(...(await bareLatency(receiver, body, headers, LATENCY_N)));
        hookSamples.push(...(await webhookLatency(server, receiver, LATENCY_N)));
      }
      const bareRate = median(bareRates);
      const hookRate = median(hookRates);
      const bareLat = summarize(bareSamples);
      const hookLat = summarize(hookSamples);

      const failed = server.services.webhooks.deliveries().filter((d) => d.status === 'failed').length;
      const hook = server.services.webhooks.list()[0];
      if (failed > 0 || (hook?.failureCount ?? 0) > 0) {
        throw new Error(`benchmark deliveries failed: ${hook?.failureCount} failed attempts`);
      }
      return [
        {
          name: `signed deliveries per second (median of ${ROUNDS} rounds of ${THROUGHPUT_N}, ${CONCURRENCY} in flight)`,
          value: hookRate,
          unit: 'deliveries/s',
          baseline: { name: 'bare keep-alive POST loop', value: bareRate },
          target: '>= 2000/s and >= 70% of the bare loop',
          pass: hookRate >= 2000 && hookRate >= 0.7 * bareRate,
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
      ];
    } finally {
      await server.close();
      await receiver.close();
      await vault.cleanup();
      await data.cleanup();
    }
  },
};

export default scenario;
