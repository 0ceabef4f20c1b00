/**
 * The `rrule` package, loaded the first time a recurrence rule is parsed or evaluated. It is an
 * installed dependency (the NLP parser needs it too), so it is not bundled and loads without the
 * bundle's code cache: loaded with the recurrence modules, it took 17-22 ms of every start on Node
 * 20 (5-7 ms on Node 24), although a start on the bench vault, whose tasks recur, asks for no rule
 * before its first answer (docs/performance.md).
 */
import { createRequire } from 'node:module';
import type { RRule as RRuleClass } from 'rrule';

let loaded: typeof RRuleClass | undefined;

/** rrule's `RRule` class. */
export function rruleClass(): typeof RRuleClass {
  loaded ??= (createRequire(import.meta.url)('rrule') as { RRule: typeof RRuleClass }).RRule;
  return loaded;
}
