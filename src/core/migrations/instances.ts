/**
 * A day listed both as completed and as skipped is contradictory (tasknotes-spec §8.6); migration
 * keeps it in one list by policy (completion wins by default) and de-duplicates both lists.
 */
export type OverlapPolicy = 'prefer_complete' | 'prefer_skip';

const unique = (days: readonly string[]): string[] => [...new Set(days)];

export function resolveInstanceOverlap(
  complete: readonly string[],
  skipped: readonly string[],
  policy: OverlapPolicy = 'prefer_complete',
): { completeInstances: string[]; skippedInstances: string[] } {
  const done = unique(complete);
  const skip = unique(skipped);
  const both = new Set(done.filter((d) => skip.includes(d)));
  return policy === 'prefer_skip'
    ? { completeInstances: done.filter((d) => !both.has(d)), skippedInstances: skip }
    : { completeInstances: done, skippedInstances: skip.filter((d) => !both.has(d)) };
}
