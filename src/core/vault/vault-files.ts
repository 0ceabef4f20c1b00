/**
 * Vault files other than notes that a client or a setting names by vault-relative path (webhook
 * transform templates, ICS files): the path rules of paths.ts and the link rule of vault-entry.ts
 * in one call, so every such read is as safe as a note read.
 */
import { invalid } from '../errors.js';
import { resolveVaultPath, type VaultPathPolicy } from './paths.js';
import { inspectVaultPath } from './vault-entry.js';

/**
 * The file to open for a client-supplied vault-relative path: the path itself, or a file link's
 * target. Throws INVALID (naming `what`, never where a link leads) for an unsafe path or one the
 * link rule refuses; a missing file is left for the read to report.
 */
export function vaultFilePath(policy: VaultPathPolicy, input: string, what: string): string {
  const { rel, abs } = resolveVaultPath(policy, input, what);
  const entry = inspectVaultPath(policy, rel);
  if (entry.kind === 'refused') throw invalid(`Invalid ${what}: ${entry.reason}`);
  return entry.kind === 'file' ? entry.real : abs;
}
