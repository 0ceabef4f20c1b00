/**
 * Dependencies on a task that does not exist (tasknotes-spec §10.2.6): such a dependency is
 * reported as `unresolved_dependency_target` with the configured severity, blocks by default, and
 * may be refused outright on write when `require_resolved_uid_on_write` is set.
 */
import { invalid } from '../errors.js';

export interface MissingTargetPolicy {
  severity: 'warning' | 'error';
  /** Whether a dependency on a missing task blocks (spec default: yes). */
  treatMissingTargetAsBlocked: boolean;
  requireResolvedUidOnWrite: boolean;
}

/**
 * The spec's defaults (§9.11), which apply to a TaskNotes vault: its settings have no
 * dependency section.
 */
export const DEFAULT_DEPENDENCY_POLICY: Readonly<MissingTargetPolicy> = Object.freeze({
  severity: 'warning',
  treatMissingTargetAsBlocked: true,
  requireResolvedUidOnWrite: false,
});

export interface MissingTargetOutcome {
  blocked: boolean;
  issue: 'unresolved_dependency_target';
  severity: 'warning' | 'error';
}

/** The outcome for a dependency whose target cannot be found; throws when a write must refuse it. */
export function missingTargetOutcome(policy: MissingTargetPolicy, onWrite: boolean): MissingTargetOutcome {
  if (onWrite && policy.requireResolvedUidOnWrite) {
    throw invalid('unresolved_dependency_target: require_resolved_uid_on_write forbids a missing target');
  }
  return {
    blocked: policy.treatMissingTargetAsBlocked,
    issue: 'unresolved_dependency_target',
    severity: policy.severity,
  };
}
