/**
 * Combining configuration providers (tasknotes-spec §9.1, §9.3): providers are applied in order
 * and a later provider replaces a whole top-level section (no deep merge — a partial section
 * would silently mix two configurations). Strict mode refuses to run on an unreadable or
 * incomplete configuration; permissive mode falls back to defaults.
 */
import { invalid } from '../errors.js';

export type ConfigObject = Record<string, unknown>;

export function mergeTopLevel(providers: readonly ConfigObject[]): ConfigObject {
  return Object.assign({}, ...providers) as ConfigObject;
}

/** The spec version in force: the one a provider declares, else the implementation's target. */
export function effectiveSpecVersion(
  providerVersion: string | undefined,
  targetVersion: string,
): { value: string; synthesized: boolean } {
  const declared = providerVersion?.trim();
  return declared ? { value: declared, synthesized: false } : { value: targetVersion, synthesized: true };
}

export type ConfigMode = 'strict' | 'permissive';

export interface ProviderState {
  mode: string;
  providersReadable: boolean;
  hasRequiredKeys: boolean;
}

/** Throws INVALID when the configuration may not be used in the requested mode. */
export function assertConfigurationUsable(state: ProviderState): void {
  if (state.mode !== 'strict' && state.mode !== 'permissive') {
    throw invalid(`configuration mode unsupported: ${state.mode}`);
  }
  if (state.mode === 'strict' && !(state.providersReadable && state.hasRequiredKeys)) {
    throw invalid('strict configuration requires readable providers and the required effective keys');
  }
}
