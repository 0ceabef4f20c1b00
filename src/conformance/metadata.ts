/**
 * What Taskdown claims to the tasknotes-spec conformance suite (spec §7.3). Profiles are
 * cumulative (extended ⇒ recurrence ⇒ core-lite); capabilities gate the optional operation
 * families. Every claim here is backed by a handler in src/conformance/ops.
 */
import { SPEC_VERSION } from '../core/spec-version.js';
import { VERSION } from '../version.js';

export const conformanceMetadata = {
  implementation: 'taskdown',
  version: VERSION,
  spec_version: SPEC_VERSION,
  validation_modes: ['strict', 'permissive'],
  profiles: ['core-lite', 'recurrence', 'extended', 'templating', 'materialized-occurrences'],
  capabilities: [
    'config-lite',
    'validation-core',
    'dependencies',
    'reminders',
    'links',
    'time-tracking',
    'rename',
    'archive',
    'batch',
    'concurrency',
    'dry-run',
    'migration',
    'templating',
    'materialized-occurrences',
  ],
} as const;

export function hasProfile(profile: string): boolean {
  return (conformanceMetadata.profiles as readonly string[]).includes(profile);
}

export function hasCapability(capability: string): boolean {
  return (conformanceMetadata.capabilities as readonly string[]).includes(capability);
}
