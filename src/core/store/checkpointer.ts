/**
 * WAL checkpoints on a worker thread. A checkpoint copies the WAL's pages into the database file
 * and, with `synchronous = NORMAL`, fsyncs both: 35-70 ms after 4,000 events on the development
 * machine. SQLite's automatic checkpoint runs inside whichever commit crosses 1,000 WAL pages, so
 * an event every ~250 stalled the operation that emitted it that long, and checkpointing cost
 * more than all the commits together (1,700 against 4,000 deliveries a second in the webhook
 * bench). Here a second connection, on its own thread, checkpoints once a second while there were
 * commits (PASSIVE: it never waits for, nor blocks, the main connection's writes). The main
 * connection's own automatic checkpoint stays as a backstop at a much larger WAL, should the
 * worker fall behind or fail.
 *
 * The worker starts with the first commit, so a start that writes nothing starts no thread.
 */
import { Worker } from 'node:worker_threads';
import type { SqliteDatabase, SqliteDriver } from './sqlite.js';

/** Backstop for the main connection's own checkpoints, in pages (64 MB with 4 KB pages). */
export const BACKSTOP_CHECKPOINT_PAGES = 16_384;
const INTERVAL_MS = 1000;

// Plain JavaScript run by the worker: its own connection to the same file, through the same driver
// (opened by the driver's workerOpen expression), checkpointing on demand.
const workerSource = (open: string): string => `
const { parentPort, workerData } = require('node:worker_threads');
const db = ${open};
parentPort.on('message', (message) => {
  if (message === 'checkpoint') {
    try {
      db.exec('PRAGMA wal_checkpoint(PASSIVE)');
    } catch (err) {
      parentPort.postMessage(String(err && err.message));
    }
    parentPort.postMessage('done');
  } else {
    db.close();
    parentPort.close();
  }
});
`;

export class Checkpointer {
  private worker: Worker | undefined;
  private readonly changes;
  private seen = 0;
  private busy = false;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly file: string,
    private readonly driver: SqliteDriver,
    private readonly onError: (message: string) => void,
  ) {
    this.changes = db.prepare<[], { n: number }>('SELECT total_changes() AS n');
    this.seen = this.changes.get()?.n ?? 0;
    this.timer = setInterval(() => this.tick(), INTERVAL_MS);
    this.timer.unref();
  }

  /** Stops the worker (the main connection's close checkpoints what is left). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    const worker = this.worker;
    this.worker = undefined;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage('stop');
    await exited;
  }

  private tick(): void {
    if (this.stopped || this.busy) return;
    const changes = this.changes.get()?.n ?? 0;
    if (changes === this.seen) return;
    this.seen = changes;
    this.busy = true;
    this.start().postMessage('checkpoint');
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(workerSource(this.driver.workerOpen), {
      eval: true,
      workerData: { ...this.driver.workerData, file: this.file },
    });
    worker.unref();
    worker.on('message', (message: string) => {
      if (message === 'done') this.busy = false;
      else this.onError(message);
    });
    worker.on('error', (err) => {
      // The backstop checkpoints keep the WAL bounded; a new worker is tried at the next tick.
      this.onError(err.message);
      if (this.worker === worker) this.worker = undefined;
      this.busy = false;
    });
    this.worker = worker;
    return worker;
  }
}
