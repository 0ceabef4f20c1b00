/**
 * Normalizing a legacy `blockedBy` list (tasknotes-spec §8.7, §10.2.2): entries without a usable
 * uid are dropped, duplicates (by normalized uid) keep the first, a missing or unknown reltype
 * becomes the default, and uids are written in the canonical wikilink form `[[target]]`.
 */
import {
  DEFAULT_RELTYPE,
  isReltype,
  normalizeDependencyUid,
  type DependencyEntry,
  type DependencyReltype,
} from './entry.js';

function reltypeOf(value: unknown, fallback: DependencyReltype): DependencyReltype {
  const upper = typeof value === 'string' ? value.trim().toUpperCase() : '';
  return isReltype(upper) ? upper : fallback;
}

export function normalizeDependencyList(
  entries: readonly unknown[],
  defaultReltype: string = DEFAULT_RELTYPE,
): DependencyEntry[] {
  const fallback = reltypeOf(defaultReltype, DEFAULT_RELTYPE);
  const seen = new Set<string>();
  const out: DependencyEntry[] = [];
  for (const entry of entries) {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) continue;
    const { uid, reltype, gap } = entry as Record<string, unknown>;
    const key = typeof uid === 'string' ? normalizeDependencyUid(uid) : null;
    if (key === null || seen.has(key)) continue;
    seen.add(key);
    const normalized: DependencyEntry = { uid: `[[${key}]]`, reltype: reltypeOf(reltype, fallback) };
    if (typeof gap === 'string' && gap.trim() !== '') normalized.gap = gap.trim();
    out.push(normalized);
  }
  return out;
}
