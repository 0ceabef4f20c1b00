/**
 * Batch outcomes (tasknotes-spec §5.15). Items run independently — one failure does not roll the
 * others back — and the caller gets per-item outcomes plus the summary counts.
 *
 * Adapter only: Taskdown's API has no batch operation (each request is one task write), so
 * this summary serves the suite's `batch.apply` alone.
 */
export interface BatchSummary {
  total: number;
  succeeded: number;
  failed: number;
}

/**
 * Counts outcomes per item: an outcome belongs to the item with its `id`, or — when it carries no
 * id — to the item at the same position. An item without a successful outcome counts as failed.
 */
export function summarizeBatch(
  itemIds: readonly string[],
  outcomes: ReadonlyArray<{ id?: unknown; ok?: unknown }>,
): BatchSummary {
  const succeeded = itemIds.filter((id, index) => {
    const positional = outcomes[index];
    const outcome =
      outcomes.find((o) => o.id === id) ?? (positional?.id === undefined ? positional : undefined);
    return outcome?.ok === true;
  }).length;
  return { total: itemIds.length, succeeded, failed: itemIds.length - succeeded };
}
