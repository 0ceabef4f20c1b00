/** Runs `tick` every `ms` while `enabled` and the tab is visible (no polling in background tabs). */
import { useEffect, useRef } from 'preact/hooks';

export function usePoll(tick: () => void, ms: number, enabled: boolean): void {
  const latest = useRef(tick);
  latest.current = tick;
  useEffect(() => {
    if (!enabled) return;
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') latest.current();
    }, ms);
    return () => clearInterval(timer);
  }, [ms, enabled]);
}
