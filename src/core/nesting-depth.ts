/**
 * How deeply a JSON-like value nests, measured without recursion (so a hostile value cannot
 * overflow the stack here) and stopping as soon as the limit is passed.
 */
import { invalid } from './errors.js';

/** True when `value` has arrays or objects nested more than `max` levels deep. */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (current === null || typeof current !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

/**
 * Deepest value a task field may hold (`customFrontmatter`, user fields, any frontmatter key):
 * frontmatter is written as YAML, whose writer recurses once per level.
 */
export const MAX_FIELD_DEPTH = 16;

/** Throws a 400 naming the first field of `fields` nested deeper than MAX_FIELD_DEPTH. */
export function checkFieldDepth(fields: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(fields)) {
    if (nestedDeeperThan(value, MAX_FIELD_DEPTH)) {
      throw invalid(`${key} is nested too deeply (at most ${MAX_FIELD_DEPTH} levels)`, { field: key });
    }
  }
}
