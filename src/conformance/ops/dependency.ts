/** dependency.* — blocked_by entries (spec §10.2) over src/core/dependencies. */
import { missingTargetOutcome } from '../../core/dependencies/blocking.js';
import { addDependency, removeDependency, replaceDependencies } from '../policy/dependency-edit.js';
import { dependencyEntryIssue, dependencySetIssue } from '../../core/dependencies/entry.js';
import { attempt, errResult, okResult } from '../envelope.js';
import { record, records, str } from '../input.js';
import type { OpTable } from '../types.js';

export const dependencyOps: OpTable = {
  'dependency.validate_entry': (input) => {
    const issue = dependencyEntryIssue(record(input).entry);
    return issue ? errResult(issue) : okResult({ value: 'valid' });
  },
  'dependency.validate_set': (input) => {
    const { taskUid, entries } = record(input);
    const issue = dependencySetIssue(str(taskUid), Array.isArray(entries) ? entries : []);
    return issue ? errResult(issue) : okResult({ value: 'valid_set' });
  },
  'dependency.add': (input) => {
    const { current, entry } = record(input);
    return attempt(() => ({ value: addDependency(records(current), record(entry)) }));
  },
  'dependency.remove': (input) => {
    const { current, uid } = record(input);
    return attempt(() => ({ value: removeDependency(records(current), str(uid)) }));
  },
  'dependency.replace': (input) => {
    const { entries } = record(input);
    return attempt(() => ({ value: replaceDependencies(records(entries)) }));
  },
  'dependency.missing_target_behavior': (input) => {
    const p = record(input);
    return attempt(() =>
      missingTargetOutcome(
        {
          severity: p.unresolvedTargetSeverity === 'error' ? 'error' : 'warning',
          treatMissingTargetAsBlocked: p.treatMissingTargetAsBlocked !== false,
          requireResolvedUidOnWrite: p.requireResolvedUidOnWrite === true,
        },
        p.onWrite === true,
      ),
    );
  },
};
