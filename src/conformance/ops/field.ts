/** field.* — semantic-role field mapping (spec §2) over src/core/tasks/role-mapping. */
import {
  buildRoleMapping,
  defaultCompletedStatus,
  defaultRoleMapping,
  isCompletedRoleStatus,
  resolveDisplayTitle,
  toFieldKeys,
  toRoleKeys,
  type RoleMapping,
} from '../../core/tasks/role-mapping.js';
import { okResult } from '../envelope.js';
import { optString, record } from '../input.js';
import type { OpResult, OpTable } from '../types.js';

/** Every field.* input may carry the type's `fields` and a `displayNameKey`. */
function withMapping(run: (mapping: RoleMapping, input: Record<string, unknown>) => unknown) {
  return (raw: unknown): OpResult => {
    const input = record(raw);
    return okResult(run(buildRoleMapping(record(input.fields), optString(input.displayNameKey)), input));
  };
}

export const fieldOps: OpTable = {
  'field.default_mapping': () => okResult(defaultRoleMapping()),
  'field.build_mapping': withMapping((mapping) => mapping),
  'field.normalize': withMapping((mapping, input) => ({
    normalized: toRoleKeys(record(input.frontmatter), mapping),
  })),
  'field.denormalize': withMapping((mapping, input) => ({
    denormalized: toFieldKeys(record(input.roleData), mapping),
  })),
  'field.resolve_display_title': withMapping((mapping, input) => ({
    value: resolveDisplayTitle(record(input.frontmatter), mapping, optString(input.taskPath)) ?? null,
  })),
  'field.is_completed_status': withMapping((mapping, input) => ({
    value: isCompletedRoleStatus(mapping, optString(input.status)),
  })),
  'field.default_completed_status': withMapping((mapping) => ({ value: defaultCompletedStatus(mapping) })),
};
