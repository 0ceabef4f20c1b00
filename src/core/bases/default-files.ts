/**
 * POST /api/bases/default-files/update (as in the TaskNotes plugin): writes every configured
 * default `.base` file from the current settings, overwriting existing files. Paths are reported
 * exactly as configured; a write failure ends the run with the lists so far. Writes are atomic and stay inside the vault: a path that escapes it or
 * points into `.obsidian/` or the data dir is skipped, never written.
 */
import type { Logger } from '../logger.js';
import { writeFileAtomic } from '../vault/atomic-write.js';
import { resolveVaultPath, type VaultPathPolicy } from '../vault/paths.js';
import { inspectVaultPath } from '../vault/vault-entry.js';
import type { BasesSettings } from './bases-settings.js';
import { renderBaseTemplate } from './base-templates.js';

export interface DefaultFilesResult {
  created: string[];
  updated: string[];
  skipped: string[];
}

export interface BasesServiceDeps {
  vault: VaultPathPolicy;
  log: Logger;
  settings: () => BasesSettings;
}

export class BasesService {
  constructor(private readonly deps: BasesServiceDeps) {}

  async updateDefaultFiles(): Promise<DefaultFilesResult> {
    const settings = this.deps.settings();
    const result: DefaultFilesResult = { created: [], updated: [], skipped: [] };
    for (const [command, configured] of Object.entries(settings.commandFileMapping)) {
      if (configured.trim() === '') continue;
      const content = renderBaseTemplate(command, settings);
      if (content === undefined) {
        result.skipped.push(configured);
        continue;
      }
      let rel: string;
      try {
        rel = resolveVaultPath(this.deps.vault, configured.trim(), 'base file').rel;
      } catch (err) {
        this.deps.log.warn(
          { path: configured, error: (err as Error).message },
          'default base file path refused',
        );
        result.skipped.push(configured);
        continue;
      }
      // A link is written through to its target when the vault's link rule allows it.
      const entry = inspectVaultPath(this.deps.vault, rel);
      if (entry.kind === 'refused' || entry.kind === 'folder') {
        this.deps.log.warn(
          { path: configured, reason: entry.kind === 'folder' ? 'it is a folder' : entry.reason },
          'default base file path refused',
        );
        result.skipped.push(configured);
        continue;
      }
      const existing = entry.kind === 'file';
      try {
        await writeFileAtomic(entry.real, content, { mkdir: true });
      } catch (err) {
        // As the reference: stop at the first write failure and report what was done so far.
        this.deps.log.error({ err, path: configured }, 'writing default base file failed');
        break;
      }
      (existing ? result.updated : result.created).push(configured);
    }
    return result;
  }
}
