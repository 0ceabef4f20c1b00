/**
 * Runs background work once the server is quiet: not before `minDelayMs`, then at the first check
 * (every `recheckMs`) that finds the event loop busy less than `threshold` of the time since the
 * previous check, and after `maxDelayMs` however busy it is. Used for the index snapshot
 * (vault-store.ts), whose serialisation competes with requests for the event loop and the heap.
 */
import { performance, type EventLoopUtilization } from 'node:perf_hooks';

export interface QuietOptions {
  minDelayMs: number;
  maxDelayMs: number;
  recheckMs: number;
  /** Event-loop utilisation (0-1) below which the server counts as quiet. */
  threshold: number;
  /** Utilisation since the previous call (the first call starts the window); injected in tests. */
  utilization?: () => number;
}

/** Event-loop utilisation since the previous call, from Node's own accounting. */
function eventLoopMeter(): () => number {
  let last: EventLoopUtilization | undefined;
  return () => {
    const now = performance.eventLoopUtilization();
    const busy = last ? performance.eventLoopUtilization(now, last).utilization : 0;
    last = now;
    return busy;
  };
}

/** Schedules `run`; returns a function that cancels it (if it has not started). */
export function whenQuiet(run: () => void, options: QuietOptions): () => void {
  const utilization = options.utilization ?? eventLoopMeter();
  const latest = Date.now() + options.maxDelayMs;
  let timer: NodeJS.Timeout | undefined;
  const check = (): void => {
    if (utilization() > options.threshold && Date.now() < latest) {
      timer = setTimeout(check, options.recheckMs).unref();
      return;
    }
    timer = undefined;
    run();
  };
  // The first window ends with the minimum delay.
  timer = setTimeout(
    () => {
      utilization();
      timer = setTimeout(check, options.recheckMs).unref();
    },
    Math.max(0, options.minDelayMs - options.recheckMs),
  ).unref();
  return () => clearTimeout(timer);
}
