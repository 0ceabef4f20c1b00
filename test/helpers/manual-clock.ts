/**
 * A Clock whose time moves only when the test says so. `advance(ms)` runs due timers in time
 * order (including timers scheduled by the timers it runs) and lets promise callbacks settle
 * between them, so async retry loops progress as they would in real time.
 */
import type { Clock, TimerHandle } from '../../src/core/clock.js';

interface Pending {
  at: number;
  seq: number;
  fn: () => void;
}

export class ManualClock implements Clock {
  private current: number;
  private seq = 0;
  private timers: Pending[] = [];

  constructor(start = Date.UTC(2026, 0, 15, 9, 0, 0)) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimer(ms: number, fn: () => void): TimerHandle {
    const timer: Pending = { at: this.current + Math.max(0, ms), seq: this.seq++, fn };
    this.timers.push(timer);
    return { cancel: () => (this.timers = this.timers.filter((t) => t !== timer)) };
  }

  /** Number of timers still waiting. */
  pending(): number {
    return this.timers.length;
  }

  async advance(ms: number): Promise<void> {
    const target = this.current + ms;
    await settle();
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.timers[0];
      if (!next || next.at > target) break;
      this.timers.shift();
      this.current = next.at;
      next.fn();
      await settle();
    }
    this.current = target;
    await settle();
  }
}

/** Lets pending promise callbacks and I/O callbacks run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
}
