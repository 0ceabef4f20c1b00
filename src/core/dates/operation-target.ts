/**
 * Which day an operation on a task (complete, skip, toggle an instance) applies to when the
 * caller does not say (tasknotes-spec §3.6): an explicit date wins and must be valid; otherwise
 * the scheduled day, then the due day (each ignored when blank or invalid), then today.
 */
import { tryDatePart } from './parts.js';
import { validateDateString } from './parse.js';

export interface OperationTargetInput {
  explicitDate?: string;
  scheduled?: string;
  due?: string;
  /** Today's local day (`YYYY-MM-DD`), from the caller's clock. */
  today: string;
}

export function resolveOperationTargetDate(input: OperationTargetInput): string {
  const explicit = input.explicitDate?.trim();
  if (explicit) return validateDateString(explicit);
  return tryDatePart(input.scheduled) ?? tryDatePart(input.due) ?? input.today;
}
