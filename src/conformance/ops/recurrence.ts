/**
 * recurrence.* — spec §4 operations over the recurrence engine (src/core/recurrence). The spec's
 * pure operations carry no settings and no clock: the floor is the operation's own date and the
 * due offset is always kept (the model's default, which the fixture invariants check).
 */
import { isDay } from '../../core/recurrence/day.js';
import { changeInstance, recalculate } from '../../core/recurrence/instance-change.js';
import { applyInstanceAction, instanceState, type InstanceAction } from '../../core/recurrence/instances.js';
import { normaliseAnchor, type RecurringState } from '../../core/recurrence/schedule.js';
import { attempt } from '../envelope.js';
import { optString, record, str, strings } from '../input.js';
import type { OpTable } from '../types.js';

function stateOf(input: Record<string, unknown>): RecurringState {
  return {
    recurrence: str(input.recurrence),
    anchor: normaliseAnchor(input.recurrenceAnchor),
    scheduled: optString(input.scheduled),
    due: optString(input.due),
    dateCreated: optString(input.dateCreated),
    complete: strings(input.completeInstances),
    skipped: strings(input.skippedInstances),
  };
}

function requireDay(value: unknown, field: string): string {
  if (!isDay(value)) throw new Error(`invalid_date_value: ${field} must be YYYY-MM-DD`);
  return value;
}

/**
 * The single-instance operations (§4.8–4.10): the instance lists, plus the rule and the next
 * schedule when the input carries a recurrence (floor: the target day).
 */
function instanceOp(action: InstanceAction): OpTable[string] {
  return (raw) =>
    attempt(() => {
      const input = record(raw);
      const day = requireDay(input.targetDate, 'targetDate');
      const state = stateOf(input);
      if (state.recurrence === '') {
        const lists = applyInstanceAction(state, day, action);
        return { completeInstances: lists.complete, skippedInstances: lists.skipped };
      }
      const change = changeInstance(state, day, action, { floor: day, maintainDueOffset: true });
      return {
        completeInstances: change.complete,
        skippedInstances: change.skipped,
        updatedRecurrence: change.recurrence,
        nextScheduled: change.scheduled ?? null,
        nextDue: change.due ?? null,
      };
    });
}

export const recurrenceOps: OpTable = {
  'recurrence.complete_instance': instanceOp('complete'),
  'recurrence.uncomplete_instance': instanceOp('uncomplete'),
  'recurrence.skip_instance': instanceOp('skip'),
  'recurrence.unskip_instance': instanceOp('unskip'),
  'recurrence.effective_state': (raw) =>
    attempt(() => {
      const input = record(raw);
      return { value: instanceState(stateOf(input), requireDay(input.targetDate, 'targetDate')) };
    }),
  'recurrence.complete': (raw) =>
    attempt(() => {
      const input = record(raw);
      const day = requireDay(input.completionDate, 'completionDate');
      const change = changeInstance(stateOf(input), day, 'complete', { floor: day, maintainDueOffset: true });
      return {
        updatedRecurrence: change.recurrence,
        nextScheduled: change.scheduled ?? null,
        nextDue: change.due ?? null,
        completeInstances: change.complete,
        skippedInstances: change.skipped,
      };
    }),
  'recurrence.recalculate': (raw) =>
    attempt(() => {
      const input = record(raw);
      const floor = requireDay(input.referenceDate, 'referenceDate');
      const next = recalculate(stateOf(input), { floor, maintainDueOffset: true });
      return {
        updatedRecurrence: next.recurrence,
        nextScheduled: next.scheduled ?? null,
        nextDue: next.due ?? null,
      };
    }),
};
