/**
 * What a killed server leaves behind, cleared at the next start (docs/vault-safety.md): the temp
 * files of atomic writes (`.<name>.<12 hex>.tmp`) in the vault's note folders. Only at start:
 * while serving, they belong to writes in flight.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../logger.js';

/** Removes the vault's temp files found by the start-up walk (vault-relative paths). */
export function clearVaultDebris(root: string, temps: readonly string[], log: Logger): void {
  for (const rel of temps) {
    try {
      rmSync(path.join(root, ...rel.split('/')), { force: true });
    } catch (err) {
      log.warn({ err, path: rel }, 'cannot remove a temp file left by a crash');
    }
  }
  if (temps.length > 0) log.info({ count: temps.length }, 'removed temp files left by a crash in the vault');
}
