/**
 * Parsed events of each ICS subscription, kept in memory and in `<data dir>/calendar-cache/`
 * so a restart serves the last good copy instead of an empty calendar. A cache file that cannot
 * be read is treated as absent: it only ever holds data that can be fetched again.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { writeFileAtomic } from '../vault/atomic-write.js';
import { CalendarEventSchema } from './types.js';

const Nullable = <T extends ReturnType<typeof Type.String>>(s: T) => Type.Union([s, Type.Null()]);

export const CacheEntrySchema = Type.Object({
  events: Type.Array(CalendarEventSchema),
  /** Epoch ms of the last successful fetch, null before the first one. */
  fetchedAt: Type.Union([Type.Number(), Type.Null()]),
  lastFetched: Nullable(Type.String()),
  lastError: Nullable(Type.String()),
  /** What the copy leaves out of the feed (see feedWarning in ics-subscriptions.ts); none when absent. */
  lastWarning: Type.Optional(Type.String()),
  /** Local feeds: file mtime at the last read, to notice edits. */
  sourceMtimeMs: Type.Optional(Type.Number()),
});
export type CacheEntry = Static<typeof CacheEntrySchema>;

export class SubscriptionCache {
  private readonly memory = new Map<string, CacheEntry>();
  private readonly loaded = new Set<string>();

  constructor(private readonly dir: string) {}

  private file(id: string): string {
    return path.join(this.dir, `${createHash('sha256').update(id).digest('hex').slice(0, 32)}.json`);
  }

  async get(id: string): Promise<CacheEntry | undefined> {
    if (!this.loaded.has(id)) {
      this.loaded.add(id);
      try {
        const parsed: unknown = JSON.parse(await fs.readFile(this.file(id), 'utf8'));
        if (Value.Check(CacheEntrySchema, parsed)) this.memory.set(id, parsed);
      } catch {
        // Missing or unreadable: fetched again on demand.
      }
    }
    return this.memory.get(id);
  }

  /** Persists first, so what is served is always what a restart would serve. */
  async set(id: string, entry: CacheEntry): Promise<void> {
    await writeFileAtomic(this.file(id), JSON.stringify(entry), { mkdir: true, mode: 0o600 });
    this.memory.set(id, entry);
    this.loaded.add(id);
  }

  async remove(id: string): Promise<void> {
    this.memory.delete(id);
    this.loaded.delete(id);
    await fs.rm(this.file(id), { force: true });
  }
}
