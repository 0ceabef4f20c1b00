/**
 * Canonical temporal values (tasknotes-spec §8.5): datetimes in timestamp fields are rewritten as
 * canonical UTC instants (`2026-02-20 10:00:00+00:00` → `2026-02-20T10:00:00Z`). A date-only
 * value stays date-only (a date must never silently become a datetime) and an unparseable value
 * is left as it is for the validator to report.
 */
import { parseTemporalValue } from '../dates/parse.js';
import { canonicalInstant } from '../time/entry-rules.js';

export const TIMESTAMP_FIELDS: readonly string[] = ['dateCreated', 'dateModified', 'absoluteTime'];

export function canonicalTemporal(value: unknown): unknown {
  if (typeof value !== 'string' || value.trim() === '') return value;
  try {
    const parsed = parseTemporalValue(value.trim());
    return parsed.hasTime ? canonicalInstant(parsed.instant) : value;
  } catch {
    return value;
  }
}

export function normalizeTemporalFields(frontmatter: Record<string, unknown>): Record<string, unknown> {
  const out = { ...frontmatter };
  for (const key of TIMESTAMP_FIELDS) if (Object.hasOwn(out, key)) out[key] = canonicalTemporal(out[key]);
  return out;
}
