/**
 * Benchmark figures and their printing. Every figure can carry a baseline measured in the same
 * run on the same machine, so the ratio (not the absolute number) is what gets compared.
 */
export interface Figure {
  /** e.g. "cold start to first answered request" */
  name: string;
  value: number;
  unit: string;
  /** A bare-bones equivalent measured in the same run. */
  baseline?: { name: string; value: number };
  /** Human-readable target, e.g. "<= 1.0 s and <= 1.5x baseline". */
  target?: string;
  /** Whether the target was met (undefined when there is no target). */
  pass?: boolean;
}

export interface Scenario {
  /** Short name shown as a heading, e.g. "tasks", "webhooks". */
  name: string;
  run(): Promise<Figure[]>;
}

const fmt = (n: number): string =>
  Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 10 ? n.toFixed(1) : n.toFixed(2);

export function formatFigure(f: Figure): string {
  let line = `  ${f.name}: ${fmt(f.value)} ${f.unit}`;
  if (f.baseline) {
    line += `  | baseline (${f.baseline.name}): ${fmt(f.baseline.value)} ${f.unit}`;
    line += `  | ratio ${(f.value / f.baseline.value).toFixed(2)}x`;
  }
  if (f.target) line += `  | target ${f.target}: ${f.pass ? 'met' : 'MISSED'}`;
  return line;
}
