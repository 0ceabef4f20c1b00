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
 * The thread costs memory (8-10 MB of resident memory for its V8 isolate and connection,
 * measured with the task bench), so it runs only while there is checkpointing to do: it starts
 * once START_CHANGES rows were written since the last checkpoint (a few events, an edit or a
 * time entry leave the WAL small, and their rows wait for the next busy spell or the clean stop's
 * checkpoint), and stops after IDLE_TICKS ticks without a commit.
 */
import { Worker } from 'node:worker_threads';
import type { SqliteDatabase, SqliteDriver } from './sqlite.js';

/** Backstop for the main connection's own checkpoints, in pages (64 MB with 4 KB pages). */
export const BACKSTOP_CHECKPOINT_PAGES = 16_384;

export interface CheckpointerTiming {
  /** How often the commits are looked at. */
  intervalMs: number;
  /**
   * Rows written since the last checkpoint that make one worth a thread: 500 rows are about 100
   * events with a delivery each, some hundreds of WAL pages (SQLite's own default is 1,000).
   */
  startChanges: number;
  /** Ticks without a commit after which the worker stops. */
  idleTicks: number;
}

const TIMING: CheckpointerTiming = { intervalMs: 1000, startChanges: 500, idleTicks: 60 };

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
  /** total_changes() at the last checkpoint, and at the last tick. */
  private checkpointed = 0;
  private seen = 0;
  private idle = 0;
  private busy = false;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly file: string,
    private readonly driver: SqliteDriver,
    private readonly onError: (message: string) => void,
    private readonly timing: CheckpointerTiming = TIMING,
    /**
     * Whether the path still names the main connection's file. The worker opens the path: were
     * it another file (store-file.ts), the worker would checkpoint this connection's WAL into it.
     */
    private readonly fileIsCurrent: () => boolean = () => true,
  ) {
    this.changes = db.prepare<[], { n: number }>('SELECT total_changes() AS n');
    this.checkpointed = this.seen = this.changes.get()?.n ?? 0;
    this.timer = setInterval(() => this.tick(), timing.intervalMs);
    this.timer.unref();
  }

  /** Whether the worker thread runs (for tests). */
  get running(): boolean {
    return this.worker !== undefined;
  }

  /** Stops the worker (the main connection's close checkpoints what is left). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    const worker = this.worker;
    this.worker = undefined;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    // Unreferenced while it runs, the worker must be referenced while it is waited for: otherwise
    // a process with nothing else to do ends before the worker's exit, and the rest of a shutdown
    // waiting on this (closing the store, freeing the data dir's lock) never runs.
    worker.ref();
    worker.postMessage('stop');
    await exited;
  }

  private tick(): void {
    if (this.stopped || this.busy) return;
    const changes = this.changes.get()?.n ?? 0;
    if (changes === this.seen) {
      if (this.worker && ++this.idle >= this.timing.idleTicks) this.retire();
      return;
    }
    this.seen = changes;
    this.idle = 0;
    if (!this.worker && changes - this.checkpointed < this.timing.startChanges) return;
    if (!this.worker && !this.fileIsCurrent()) return;
    this.checkpointed = changes;
    this.busy = true;
    this.start().postMessage('checkpoint');
  }

  /** Stops an idle worker: its thread's memory goes back to the system. */
  private retire(): void {
    const worker = this.worker;
    this.worker = undefined;
    worker?.postMessage('stop');
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
