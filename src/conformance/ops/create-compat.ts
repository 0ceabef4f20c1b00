/**
 * create_compat.create — typed task creation (spec §5.3) over src/core/tasks/typed-create. The
 * fixture's collection is an in-memory one; `forceCreateError` makes it refuse the write with
 * that code, standing in for a store-level failure (exists, permission, validation).
 */
import { defaultRoleMapping } from '../../core/tasks/role-mapping.js';
import {
  createTypedTask,
  type TaskCollection,
  type TaskTypeDefinition,
} from '../../core/tasks/typed-create.js';
import { fromThrown, okResult } from '../envelope.js';
import { optString, record } from '../input.js';
import type { OpTable } from '../types.js';

function fixtureCollection(forcedError: string | undefined): TaskCollection {
  return {
    create: async () => {
      if (forcedError !== undefined) throw new Error(forcedError);
    },
  };
}

function fixtureNow(fixedNow: string | undefined): Date {
  const parsed = fixedNow ? new Date(fixedNow) : new Date();
  return Number.isNaN(parsed.getTime()) ? new Date() : parsed;
}

export const createCompatOps: OpTable = {
  'create_compat.create': async (input) => {
    const p = record(input);
    const forced = p.forceCreateError === undefined ? undefined : String(p.forceCreateError);
    try {
      const created = await createTypedTask(
        fixtureCollection(forced),
        {
          type: record(p.taskType) as TaskTypeDefinition,
          frontmatter: record(p.frontmatter),
          body: optString(p.body),
        },
        defaultRoleMapping(),
        fixtureNow(optString(p.fixedNow)),
      );
      return okResult({ ...created, warnings: [] });
    } catch (error) {
      return fromThrown(error);
    }
  },
};
