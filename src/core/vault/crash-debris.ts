/**
 * What a killed server leaves behind, cleared at the next start (docs/vault-safety.md): the temp
 * files of atomic writes (`.<name>.<12 hex>.tmp`), in the vault's note folders and anywhere in
 * the data dir, where some hold secrets. Only at start, holding the data dir's lock: while
 * serving, they belong to writes in flight.
 */
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../logger.js';
import { isTempFileName } from './atomic-write.js';

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

/** Removes the temp files a crash left anywhere in the data dir. */
export function clearDataDirDebris(dataDir: string, log: Logger): void {
  let count = 0;
  const walk = (dir: string): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const abs = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(abs);
      else if (isTempFileName(entry.name)) {
        rmSync(abs, { force: true });
        count++;
      }
    }
  };
  walk(dataDir);
  if (count > 0) log.info({ count }, 'removed temp files left by a crash in the data dir');
}
