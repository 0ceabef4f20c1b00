/**
 * The one thing webhooks need from the vault: read a transform template by its vault-relative
 * path. Path safety (no escape, nothing under `.obsidian/` or the data dir) is the vault's rule,
 * applied here through vaultFilePath (which also refuses links leading out of the vault);
 * webhooks know nothing else about the vault.
 */
import { readFile } from 'node:fs/promises';
import type { VaultPathPolicy } from '../vault/paths.js';
import { vaultFilePath } from '../vault/vault-files.js';

export interface VaultFileReader {
  /** Reads a vault-relative file as UTF-8; rejects for unsafe paths and missing files. */
  readText(rel: string): Promise<string>;
}

export function createVaultFileReader(policy: VaultPathPolicy): VaultFileReader {
  return {
    async readText(rel) {
      return readFile(vaultFilePath(policy, rel, 'transform file'), 'utf8');
    },
  };
}
