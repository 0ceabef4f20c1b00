/**
 * Per-instance state: the `complete_instances` and `skipped_instances` day lists
 * (tasknotes-spec §4.5–4.11). Lists behave as sets, a day is never in both, and every action is
 * idempotent.
 */
import { resolveInstanceOverlap, type OverlapPolicy } from '../migrations/instances.js';

export type InstanceAction = 'complete' | 'uncomplete' | 'skip' | 'unskip';

export interface InstanceLists {
  complete: string[];
  skipped: string[];
}

type ReadonlyLists = { readonly complete: readonly string[]; readonly skipped: readonly string[] };

const without = (list: readonly string[], day: string): string[] => list.filter((d) => d !== day);
const withDay = (list: readonly string[], day: string): string[] =>
  list.includes(day) ? [...list] : [...list, day];

export function applyInstanceAction(
  lists: ReadonlyLists,
  day: string,
  action: InstanceAction,
): InstanceLists {
  // The day goes into one list and out of the other; a day some older edit left in both is
  // settled by the same rule the migration of legacy lists uses (the action's list wins).
  const settled = (complete: readonly string[], skipped: readonly string[], policy: OverlapPolicy) => {
    const lists = resolveInstanceOverlap(complete, skipped, policy);
    return { complete: lists.completeInstances, skipped: lists.skippedInstances };
  };
  switch (action) {
    case 'complete':
      return settled(withDay(lists.complete, day), lists.skipped, 'prefer_complete');
    case 'uncomplete':
      // Not added to the skipped list (§4.8); lists are disjoint, so there is nothing to remove.
      return { complete: without(lists.complete, day), skipped: [...lists.skipped] };
    case 'skip':
      return settled(lists.complete, withDay(lists.skipped, day), 'prefer_skip');
    case 'unskip':
      return { complete: [...lists.complete], skipped: without(lists.skipped, day) };
  }
}

/** Effective state of one instance day (§4.11): completed wins over skipped. */
export function instanceState(lists: ReadonlyLists, day: string): 'completed' | 'skipped' | 'open' {
  if (lists.complete.includes(day)) return 'completed';
  return lists.skipped.includes(day) ? 'skipped' : 'open';
}

/** Days in `after` that are not in `before` (e.g. newly skipped days of an edit). */
export function addedDays(
  before: readonly string[] | undefined,
  after: readonly string[] | undefined,
): string[] {
  const old = new Set(before ?? []);
  return [...new Set(after ?? [])].filter((d) => !old.has(d));
}
