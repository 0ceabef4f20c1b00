/**
 * Retention of the store: runs the prune steps (delivery log, then event journal) once a minute,
 * and sooner when many events were journaled since the last run, so a burst of thousands of
 * events a second never lets the tables grow far past their record limit. The first run waits a
 * minute, which keeps the start-up free of it.
 */
import type { Clock, TimerHandle } from '../clock.js';
import type { Logger } from '../logger.js';
import type { EventJournal } from './event-journal.js';

export const PRUNE_INTERVAL_MS = 60_000;
/** Journal entries after which a prune runs early (one second later). */
export const PRUNE_AFTER_ENTRIES = 1000;
const EARLY_DELAY_MS = 1000;

export interface MaintenanceDeps {
  clock: Clock;
  log: Logger;
  journal: EventJournal;
  /** Run in order; each removes what its retention rule no longer keeps. */
  steps: Array<(now: number) => void>;
}

export class StoreMaintenance {
  private timer: TimerHandle | undefined;
  private timerAt = Infinity;
  private entries = 0;
  private stopped = false;
  private readonly unsubscribe: () => void;

  constructor(private readonly deps: MaintenanceDeps) {
    this.arm(PRUNE_INTERVAL_MS);
    this.unsubscribe = deps.journal.subscribe(() => {
      if (++this.entries === PRUNE_AFTER_ENTRIES) this.arm(EARLY_DELAY_MS);
    });
  }

  /** Runs every step now. */
  run(): void {
    this.entries = 0;
    const now = this.deps.clock.now();
    for (const step of this.deps.steps) {
      try {
        step(now);
      } catch (err) {
        this.deps.log.error({ err }, 'store retention step failed');
      }
    }
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe();
    this.timer?.cancel();
    this.timer = undefined;
  }

  /** Makes the next run happen within `ms` (an earlier timer stays). */
  private arm(ms: number): void {
    const at = this.deps.clock.now() + ms;
    if (this.stopped || at >= this.timerAt) return;
    this.timer?.cancel();
    this.timerAt = at;
    this.timer = this.deps.clock.setTimer(ms, () => {
      this.timer = undefined;
      this.timerAt = Infinity;
      this.run();
      this.arm(PRUNE_INTERVAL_MS);
    });
  }
}
