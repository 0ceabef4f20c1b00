/**
 * Reads an ICS source on a thread of its own, with a time and a memory limit. ical.js expands
 * recurrence rules one `next()` at a time, and for some rules a single `next()` never returns
 * (`FREQ=DAILY;BYMONTH=2;BYMONTHDAY=31`: a 200-byte feed held the main thread for over five
 * minutes and 3.5 GB before failing); its parse of a feed also grows with the square of the
 * events in it (8,000 events: 13 s). On the main thread, either stops every request. On a thread,
 * the server goes on answering, and a feed over its limits is given up with a clear error (its
 * subscription's `lastError`), its thread ended. A thread costs about 30-50 ms to start, once per
 * fetch of a feed (every few minutes at the most).
 */
import { Worker } from 'node:worker_threads';
import { THREAD_START, threadModule } from '../threads/thread-program.js';
import type { ParsedIcs, ParseIcsOptions } from './ics-parser.js';

const PARSE_MODULE = threadModule('ics-parse-thread', import.meta.url);

export interface IcsParseLimits {
  /** The thread is ended after this long (10 s). */
  timeMs?: number;
  /** Its heap may not grow past this (256 MB). */
  heapMb?: number;
  /**
   * Ends the thread early (the server stopping): the read is given up at once, so that a stop
   * does not wait for a feed to finish or reach its time limit.
   */
  signal?: AbortSignal;
}

/** Why a read ended by `signal` failed. */
export const READ_STOPPED = 'Reading the calendar was stopped: Taskdown is stopping';

const DEFAULT_TIME_MS = 10_000;
const DEFAULT_HEAP_MB = 256;

export function parseIcsBounded(
  source: string,
  options: ParseIcsOptions,
  limits: IcsParseLimits = {},
): Promise<ParsedIcs> {
  const timeMs = limits.timeMs ?? DEFAULT_TIME_MS;
  const heapMb = limits.heapMb ?? DEFAULT_HEAP_MB;
  const { signal } = limits;
  if (signal?.aborted) return Promise.reject(new Error(READ_STOPPED));
  return new Promise((resolve, reject) => {
    const worker = new Worker(THREAD_START, {
      eval: true,
      workerData: { module: PARSE_MODULE, source, options },
      resourceLimits: { maxOldGenerationSizeMb: heapMb },
      stdout: true,
      stderr: true,
    });
    let settled = false;
    const stop = (): void => settle(() => reject(new Error(READ_STOPPED)));
    const settle = (done: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', stop);
      done();
      void worker.terminate();
    };
    const timer = setTimeout(
      () =>
        settle(() =>
          reject(
            new Error(
              `Reading the calendar took over ${timeMs / 1000} s (a recurrence rule without end?); given up`,
            ),
          ),
        ),
      timeMs,
    );
    // Neither keeps a stopping server alive.
    timer.unref();
    worker.unref();
    signal?.addEventListener('abort', stop, { once: true });
    worker.on('message', (answer: { parsed?: ParsedIcs; error?: string }) =>
      settle(() => (answer.parsed ? resolve(answer.parsed) : reject(new Error(answer.error)))),
    );
    worker.on('error', (err: NodeJS.ErrnoException) =>
      settle(() =>
        reject(
          err.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new Error(`Reading the calendar needed over ${heapMb} MB; given up`)
            : err,
        ),
      ),
    );
    worker.on('exit', () => settle(() => reject(new Error('Reading the calendar stopped unexpectedly'))));
  });
}
