/** Small statistics helpers for benchmarks. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx] as number;
}

export function summarize(samples: number[]): {
  p50: number;
  p99: number;
  max: number;
  mean: number;
  n: number;
} {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = sorted.reduce((s, v) => s + v, 0) / Math.max(1, sorted.length);
  const max = sorted.length === 0 ? NaN : (sorted[sorted.length - 1] as number);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max, mean, n: sorted.length };
}

export const msSince = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1e6;
