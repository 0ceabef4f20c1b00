/**
 * Normalizing a legacy `reminders` list (tasknotes-spec §8.8): non-object entries are dropped,
 * absolute times become canonical UTC instants, and — when asked — entries without an id get one
 * that is unique within the task.
 */
import { canonicalTemporal } from '../migrations/temporal.js';

export function normalizeReminderList(
  entries: readonly unknown[],
  options: { generateIds: boolean },
): { reminders: Record<string, unknown>[]; generatedIds: number } {
  const reminders = entries
    .filter((e): e is Record<string, unknown> => e !== null && typeof e === 'object' && !Array.isArray(e))
    .map((e) => ({ ...e }));
  const taken = new Set(reminders.map((r) => r.id).filter((id): id is string => typeof id === 'string'));
  let generatedIds = 0;
  let next = 1;
  for (const reminder of reminders) {
    if (typeof reminder.absoluteTime === 'string')
      reminder.absoluteTime = canonicalTemporal(reminder.absoluteTime);
    if (!options.generateIds || (typeof reminder.id === 'string' && reminder.id.trim() !== '')) continue;
    while (taken.has(`reminder-${next}`)) next += 1;
    const id = `reminder-${next}`;
    reminder.id = id;
    taken.add(id);
    generatedIds += 1;
  }
  return { reminders, generatedIds };
}
