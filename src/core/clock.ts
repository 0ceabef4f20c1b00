/**
 * Time source for everything that waits: webhook retries, pomodoro timers, reminders.
 * Production uses the system clock; tests inject a manual clock so retry and timer rules are
 * checked without sleeping (see test/helpers/manual-clock.ts).
 */
export interface TimerHandle {
  cancel(): void;
}

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Runs `fn` after `ms` milliseconds. Timers never keep the process alive on their own. */
  setTimer(ms: number, fn: () => void): TimerHandle;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(ms, fn) {
    // Node caps timers at 2^31-1 ms (~24.8 days); longer waits re-arm in steps.
    const MAX = 2_147_483_647;
    let handle: NodeJS.Timeout;
    const due = Date.now() + ms;
    const arm = (): void => {
      const left = due - Date.now();
      handle = setTimeout(left > MAX ? arm : fn, Math.max(0, Math.min(left, MAX)));
      handle.unref();
    };
    arm();
    return { cancel: () => clearTimeout(handle) };
  },
};
