/**
 * whenQuiet with an injected event-loop utilisation: waits out the minimum delay, postpones while
 * busy, runs at the first quiet check or at the maximum delay, and can be cancelled.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { whenQuiet } from '../../../src/core/vault/when-quiet.js';

const OPTIONS = { minDelayMs: 40, maxDelayMs: 10_000, recheckMs: 20, threshold: 0.25 };

/** A utilisation source returning `values` in turn (the last one from then on), counting calls. */
function utilisation(values: number[]): { next: () => number; calls: () => number } {
  let calls = 0;
  return { next: () => values[Math.min(calls++, values.length - 1)]!, calls: () => calls };
}

describe('whenQuiet', () => {
  it('runs after the minimum delay when the server is quiet', async () => {
    let ran = 0;
    const source = utilisation([0, 0.1]);
    whenQuiet(() => ran++, { ...OPTIONS, utilization: source.next });
    await sleep(10);
    assert.equal(ran, 0, 'ran before the minimum delay');
    await sleep(200);
    assert.equal(ran, 1);
  });

  it('waits while the event loop is busy, then runs at the first quiet check', async () => {
    let ran = 0;
    // Window start, then busy for three checks, then quiet.
    const source = utilisation([0, 0.9, 0.8, 0.5, 0.1]);
    whenQuiet(() => ran++, { ...OPTIONS, utilization: source.next });
    await sleep(90);
    assert.equal(ran, 0, 'ran while busy');
    await sleep(300);
    assert.equal(ran, 1);
    assert.equal(source.calls(), 5);
  });

  it('runs after the maximum delay however busy', async () => {
    let ran = 0;
    whenQuiet(() => ran++, { ...OPTIONS, maxDelayMs: 120, utilization: () => 1 });
    await sleep(60);
    assert.equal(ran, 0);
    await sleep(300);
    assert.equal(ran, 1);
  });

  it('does not run once cancelled', async () => {
    let ran = 0;
    const cancel = whenQuiet(() => ran++, { ...OPTIONS, utilization: () => 0 });
    await sleep(30);
    cancel();
    await sleep(200);
    assert.equal(ran, 0);
  });
});
