/**
 * Taskdown's migration policy as tasknotes-spec §8 asks implementations to declare it: what the
 * compatibility mode is, what a migration plan guarantees, what a report contains, and which
 * silent changes are never made.
 *
 * Adapter only: these are declarations for the suite's `migration.*` policy questions. What
 * Taskdown normalizes when it writes a note (dependency uids, reminder ids and instants, instance
 * lists) is done by the shared modules in src/core.
 */
import { SPEC_VERSION } from '../../core/spec-version.js';

/** Legacy-alias compatibility: listed in the claim, off unless the operator turns it on. */
export const COMPAT_MODES: Readonly<Record<string, { discoverable: true; defaultsToEnabled: boolean }>> = {
  'legacy-aliases': { discoverable: true, defaultsToEnabled: false },
};

/** A migration run is deterministic, can be dry-run first, and comes with rollback guidance. */
export const MIGRATION_PLAN_GUARANTEES = Object.freeze({
  deterministic: true,
  dryRunSupported: true,
  rollbackSafeGuidance: true,
});

export const DIVERGENCE_REGISTER_COLUMNS: readonly string[] = [
  'section',
  'current_behavior',
  'target_behavior',
  'migration_strategy',
  'deprecation_timeline',
];

export const DEPRECATION_POLICY: readonly string[] = [
  'release_notes',
  'warning_period',
  'migration_tooling',
  'versioned_removal',
];

/** Changes a migration never makes on its own. */
export const SAFETY_GUARDS: readonly string[] = [
  'drop_unknown_fields',
  'date_to_datetime_silent_conversion',
  'silent_link_retarget',
];

export const COMPAT_STATEMENT =
  'Compatibility mode supports legacy aliases (off by default). Legacy forms are normalized when a ' +
  'note is written; taskdown check reports what a vault still holds.';

export interface MigrationReport {
  spec_version_from: string;
  spec_version_to: string;
  files_scanned: number;
  files_changed: number;
  warnings: Record<string, number>;
  changes: Record<string, number>;
}

const counts = (value: Record<string, unknown>): Record<string, number> =>
  Object.fromEntries(Object.entries(value).filter((e): e is [string, number] => typeof e[1] === 'number'));

export function migrationReport(run: {
  filesScanned: number;
  filesChanged: number;
  warnings: Record<string, unknown>;
  changes: Record<string, unknown>;
}): MigrationReport {
  return {
    spec_version_from: 'legacy',
    spec_version_to: SPEC_VERSION,
    files_scanned: run.filesScanned,
    files_changed: run.filesChanged,
    warnings: counts(run.warnings),
    changes: counts(run.changes),
  };
}
