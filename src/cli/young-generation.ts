/**
 * Keeps V8's young generation small in the server process.
 *
 * V8 sizes the young generation (two semi-spaces) by how much survives each young collection, up
 * to 16 MB per semi-space. A start-up scan keeps nearly everything it parses, so on the 10,000-task
 * bench vault the young generation grows to its 32 MB maximum within the first 0.2 s and, once
 * grown, stays resident for the life of the process: about a fifth of the server's RSS, although a
 * request leaves almost nothing behind. `node --max-semi-space-size=4` would cap it, but a heap's
 * limits are fixed when the isolate is created, so a process cannot set them for itself on Node 20
 * (and the `taskdown` executable should not need extra node flags).
 *
 * V8 does read `--semi-space-growth-factor` each time it grows the young generation, so setting it
 * to 1 once the young generation has reached the cap stops it there. The cap is checked after each
 * garbage collection, through a PerformanceObserver; a start-up scan yields to the event loop
 * between chunks, well before a semi-space could double again.
 *
 * Best effort: newer V8 (13, Node 24) declares a minimum of 2 for the growth factor; where it
 * enforces that at run time, the young generation is sized as V8 decides, as without this module.
 *
 * Measured with `npm run bench -- tasks`: server RSS after the load 141-153 MB → 106-124 MB, with
 * list throughput, query latency and cold start unchanged (about 10 more young collections at
 * start, ~5 ms in all).
 */
import { PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';

/** Both semi-spaces together: 4 MB each. */
export const YOUNG_GENERATION_CAP_BYTES = 8 * 1024 * 1024;

export function youngGenerationBytes(): number {
  return v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;
}

/** True when whoever started node sized the young generation themselves: theirs wins. */
function sizedByUser(): boolean {
  return /semi[-_]space/.test([...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' '));
}

/**
 * Stops the young generation from growing past `capBytes`. Call it after compiling code with a V8
 * code cache: the cache carries a hash of V8's flags and is rejected once they differ.
 */
export function capYoungGeneration(capBytes = YOUNG_GENERATION_CAP_BYTES): void {
  if (sizedByUser()) return;
  const stopGrowing = (): void => v8.setFlagsFromString('--semi-space-growth-factor=1');
  if (youngGenerationBytes() >= capBytes) {
    stopGrowing();
    return;
  }
  const observer = new PerformanceObserver(() => {
    if (youngGenerationBytes() < capBytes) return;
    stopGrowing();
    observer.disconnect();
  });
  observer.observe({ entryTypes: ['gc'] });
}
