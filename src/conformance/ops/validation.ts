/** validation.* and op.mutate_with_validation — core task validation (spec §6) over src/core. */
import { buildRoleMapping } from '../../core/tasks/role-mapping.js';
import { validateTask } from '../../core/validation/validate-task.js';
import { validateTimeEntries } from '../../core/time/entry-rules.js';
import { attempt, errResult, okResult } from '../envelope.js';
import { optString, record } from '../input.js';
import type { OpTable } from '../types.js';

export const validationOps: OpTable = {
  'validation.core_evaluate': (input) => {
    const p = record(input);
    const mapping = buildRoleMapping(record(p.fields), optString(p.displayNameKey));
    return okResult(
      validateTask(record(p.frontmatter), mapping, {
        taskPath: optString(p.taskPath),
        rejectUnknownFields: p.rejectUnknownFields === true,
      }),
    );
  },
  'validation.time_entries': (input) =>
    attempt(() => {
      validateTimeEntries(record(input).entries);
      return { value: 'valid' };
    }),
  // Strict mode validates before committing (§5.2); strict also rejects unmapped fields.
  'op.mutate_with_validation': (input) => {
    const p = record(input);
    const report = validateTask(record(p.frontmatter), buildRoleMapping(record(p.fields)), {
      rejectUnknownFields: p.strict === true,
    });
    return report.hasErrors
      ? errResult(`validation:${report.errorCodes[0]}`, report.issues)
      : okResult({ value: 'accepted' });
  },
};
