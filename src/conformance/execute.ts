/**
 * The conformance dispatcher: maps an operation name to its handler and guarantees the adapter
 * contract (always an envelope, never a throw). Handlers live in ./ops, one module per operation
 * family, and call the domain modules under src/core.
 */
import { errResult, fromThrown } from './envelope.js';
import { conformanceMetadata } from './metadata.js';
import { configOps } from './ops/config.js';
import { createCompatOps } from './ops/create-compat.js';
import { dateOps } from './ops/date.js';
import { dependencyOps } from './ops/dependency.js';
import { fieldOps } from './ops/field.js';
import { linkOps } from './ops/link.js';
import { metaOps } from './ops/meta.js';
import { migrationOps } from './ops/migration.js';
import { operationOps } from './ops/operations.js';
import { reminderOps } from './ops/reminder.js';
import { templatingOps } from './ops/templating.js';
import { timeOps } from './ops/time.js';
import { validationOps } from './ops/validation.js';
import type { OpResult, OpTable } from './types.js';

export { conformanceMetadata };

const handlers: OpTable = {
  ...metaOps,
  ...dateOps,
  ...fieldOps,
  ...configOps,
  ...createCompatOps,
  ...validationOps,
  ...operationOps,
  ...timeOps,
  ...dependencyOps,
  ...reminderOps,
  ...linkOps,
  ...templatingOps,
  ...migrationOps,
};

/**
 * recurrence.* handlers come from ./ops/recurrence.js, which the recurrence engine owns. It is
 * loaded lazily by a computed specifier so that this dispatcher builds and answers every other
 * family even while that module does not exist yet.
 */
let recurrenceTable: Promise<OpTable | null> | undefined;
function loadRecurrenceOps(): Promise<OpTable | null> {
  const specifier = ['.', 'ops', 'recurrence.js'].join('/');
  recurrenceTable ??= import(specifier).then(
    (mod: { recurrenceOps?: OpTable }) => mod.recurrenceOps ?? null,
    () => null,
  );
  return recurrenceTable;
}

async function findHandler(operation: string): Promise<OpTable[string] | undefined> {
  if (operation.startsWith('recurrence.')) return (await loadRecurrenceOps())?.[operation];
  return handlers[operation];
}

export async function execute(operation: string, input: unknown): Promise<OpResult> {
  try {
    const handler = await findHandler(operation);
    if (!handler) return errResult(`unsupported_operation:${operation}`);
    return await handler(input ?? {});
  } catch (error) {
    return fromThrown(error);
  }
}
