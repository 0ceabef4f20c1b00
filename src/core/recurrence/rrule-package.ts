/**
 * The `rrule` package, loaded the first time a recurrence rule is parsed or evaluated. It is an
 * installed dependency (the NLP parser needs it too), so it is not bundled and loads without the
 * bundle's code cache: loaded with the recurrence modules, it took about 17 ms of every start
 * whether or not anything asked for a rule before the first answer (docs/performance.md).
 */
import { createRequire } from 'node:module';
import type { RRule as RRuleClass } from 'rrule';

let loaded: typeof RRuleClass | undefined;

/** rrule's `RRule` class. */
export function rruleClass(): typeof RRuleClass {
  loaded ??= (createRequire(import.meta.url)('rrule') as { RRule: typeof RRuleClass }).RRule;
  return loaded;
}
