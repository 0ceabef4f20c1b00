/** migration.* — legacy-format normalization (spec §8) over src/core/migrations and friends. */
import { normalizeDependencyList } from '../../core/dependencies/normalize.js';
import { canonicalLink } from '../../core/links/canonical.js';
import { normalizeAliases } from '../policy/legacy-aliases.js';
import { resolveInstanceOverlap } from '../../core/migrations/instances.js';
import {
  COMPAT_MODES,
  COMPAT_STATEMENT,
  DEPRECATION_POLICY,
  DIVERGENCE_REGISTER_COLUMNS,
  MIGRATION_PLAN_GUARANTEES,
  SAFETY_GUARDS,
  migrationReport,
} from '../policy/migration-policy.js';
import { normalizeTemporalFields } from '../../core/migrations/temporal.js';
import { normalizeReminderList } from '../../core/reminders/normalize.js';
import { errResult, okResult } from '../envelope.js';
import { record, str, strings } from '../input.js';
import type { OpTable } from '../types.js';

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

export const migrationOps: OpTable = {
  'migration.compat_mode': (input) => {
    const mode = str(record(input).mode) || 'legacy-aliases';
    const declared = COMPAT_MODES[mode];
    return declared ? okResult({ ...declared }) : errResult(`migration.compat_mode unknown: ${mode}`);
  },
  'migration.plan': () => okResult({ ...MIGRATION_PLAN_GUARANTEES }),
  'migration.normalize_aliases': (input) => {
    const { frontmatter, issues } = normalizeAliases(record(record(input).frontmatter));
    return okResult(issues.length > 0 ? { frontmatter, issues } : { frontmatter });
  },
  'migration.normalize_temporal': (input) =>
    okResult({ frontmatter: normalizeTemporalFields(record(record(input).frontmatter)) }),
  'migration.resolve_instance_overlap': (input) => {
    const p = record(input);
    const policy = p.policy === 'prefer_skip' ? 'prefer_skip' : 'prefer_complete';
    return okResult(
      resolveInstanceOverlap(strings(p.completeInstances), strings(p.skippedInstances), policy),
    );
  },
  'migration.normalize_dependencies': (input) => {
    const p = record(input);
    return okResult({
      blockedBy: normalizeDependencyList(list(p.blockedBy), str(p.defaultReltype) || undefined),
    });
  },
  'migration.normalize_reminders': (input) => {
    const p = record(input);
    const { reminders, generatedIds } = normalizeReminderList(list(p.reminders), {
      generateIds: p.generateIds === true,
    });
    return okResult({ reminders, generated_ids: String(generatedIds) });
  },
  'migration.normalize_links': (input) =>
    okResult({ normalized: strings(record(input).links).map(canonicalLink) }),
  'migration.report_summary': (input) => {
    const p = record(input);
    return okResult(
      migrationReport({
        filesScanned: typeof p.files_scanned === 'number' ? p.files_scanned : 0,
        filesChanged: typeof p.files_changed === 'number' ? p.files_changed : 0,
        warnings: record(p.warnings),
        changes: record(p.changes),
      }),
    );
  },
  'migration.divergence_register': () => okResult({ columns: [...DIVERGENCE_REGISTER_COLUMNS] }),
  'migration.deprecation_policy': () => okResult({ includes: [...DEPRECATION_POLICY] }),
  'migration.safety_guards': () => okResult({ prevents: [...SAFETY_GUARDS] }),
  'migration.compat_statement': () => okResult({ value: COMPAT_STATEMENT }),
};
