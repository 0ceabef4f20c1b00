// Shared shapes of the tasknotes-spec conformance adapter contract (ADAPTER_CONTRACT.md):
// every operation answers with an envelope and never throws.

/** The envelope one conformance operation returns. */
export interface OpResult {
  ok: boolean;
  result?: unknown;
  error?: string;
  error_details?: unknown;
}

/** One operation handler: takes the fixture's `input` object, answers with an envelope. */
export type OpHandler = (input: unknown) => Promise<OpResult> | OpResult;

/** A family of handlers keyed by full operation name (e.g. `date.parse_utc`). */
export type OpTable = Record<string, OpHandler>;

/*
 * Contract with src/conformance/ops/recurrence.ts (owned by the recurrence engine):
 *   export const recurrenceOps: OpTable
 * keyed by full operation name. The dispatcher routes every `recurrence.*` operation there:
 * recurrence.complete, recurrence.recalculate (recurrence.json) and
 * recurrence.uncomplete_instance, recurrence.skip_instance, recurrence.unskip_instance,
 * recurrence.effective_state (operations.json, §4.11 / §5.x).
 */
