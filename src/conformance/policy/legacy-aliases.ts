/**
 * Legacy alias keys (tasknotes-spec §8.4): older TaskNotes notes use snake_case names for the
 * recurrence fields. Migration moves an alias to its canonical key; when both are present with
 * different values the canonical value is kept and the conflict reported — never silently merged.
 *
 * Adapter only: the spec's canonical keys are not a TaskNotes vault's (its key for the anchor is
 * `recurrence_anchor`), so Taskdown never renames these keys in a vault; legacy-alias
 * compatibility is off (migration-policy.ts).
 */
export const LEGACY_ALIASES: Readonly<Record<string, readonly string[]>> = {
  recurrenceAnchor: ['recurrence_anchor'],
  completeInstances: ['complete_instances'],
  skippedInstances: ['skipped_instances'],
};

export interface MigrationIssue {
  code: string;
  field?: string;
}

export function normalizeAliases(frontmatter: Record<string, unknown>): {
  frontmatter: Record<string, unknown>;
  issues: MigrationIssue[];
} {
  const out = { ...frontmatter };
  const issues: MigrationIssue[] = [];
  for (const [canonical, aliases] of Object.entries(LEGACY_ALIASES)) {
    for (const alias of aliases) {
      if (!Object.hasOwn(out, alias)) continue;
      if (Object.hasOwn(out, canonical) && out[canonical] !== out[alias]) {
        issues.push({ code: 'alias_conflict_ignored', field: alias });
        continue;
      }
      out[canonical] = out[alias];
      delete out[alias];
    }
  }
  return { frontmatter: out, issues };
}
