/**
 * TaskNotes settings that the task service does not model but the NLP parser and the default
 * `.base` files need (`nlpLanguage`, `nlpTriggers`, `nlpDefaultToScheduled`,
 * `calendarViewSettings`, `commandFileMapping`, `defaultVisibleProperties`), read from the
 * plugin's data.json. Read-only (SPEC §2: Taskdown never writes into `.obsidian/`); re-read when
 * the file's modification time changes, so an edit in Obsidian applies without a restart.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';

export const TASKNOTES_DATA_JSON = '.obsidian/plugins/tasknotes/data.json';

const KEYS = [
  'nlpLanguage',
  'nlpTriggers',
  'nlpDefaultToScheduled',
  'calendarViewSettings',
  'commandFileMapping',
  'defaultVisibleProperties',
] as const;

export type PluginExtras = Partial<Record<(typeof KEYS)[number], unknown>>;

export class PluginExtrasReader {
  private cache: { mtimeMs: number; value: PluginExtras } | undefined;

  constructor(private readonly vault: string) {}

  async read(): Promise<PluginExtras> {
    const file = path.join(this.vault, TASKNOTES_DATA_JSON);
    let mtimeMs: number;
    try {
      mtimeMs = (await fs.stat(file)).mtimeMs;
    } catch {
      this.cache = undefined;
      return {};
    }
    if (this.cache?.mtimeMs === mtimeMs) return this.cache.value;
    let value: PluginExtras = {};
    try {
      const raw: unknown = JSON.parse(await fs.readFile(file, 'utf8'));
      if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
        const record = raw as Record<string, unknown>;
        value = Object.fromEntries(KEYS.filter((k) => record[k] !== undefined).map((k) => [k, record[k]]));
      }
    } catch {
      // A half-written or malformed file means defaults; the task service logs the problem.
    }
    this.cache = { mtimeMs, value };
    return value;
  }
}
