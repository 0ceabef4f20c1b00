/**
 * ICS subscriptions: the list in settings (add/update/remove with validation, shared by the API
 * and the settings page), fetching with a per-subscription refresh timer on the injected Clock,
 * and the freshness rules of the events route (as in the TaskNotes plugin).
 *
 * A feed that cannot be fetched or parsed never breaks a route: the error is kept as `lastError`
 * and the previous events stay cached.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Clock, TimerHandle } from '../clock.js';
import { invalid, notFound } from '../errors.js';
import type { Logger } from '../logger.js';
import type { HttpClient } from '../net/http-client.js';
import type { SettingsStore } from '../state/settings.js';
import { resolveVaultPath, type VaultPathPolicy } from '../vault/paths.js';
import { fetchIcsSource, localMtime } from './ics-fetcher.js';
import { parseIcsBounded, type IcsParseLimits } from './ics-parse-bounded.js';
import type { ParsedIcs } from './ics-parser.js';
import type { CacheEntry, SubscriptionCache } from './subscription-cache.js';
import type { CalendarEvent, IcsSubscription } from './types.js';

export interface SubscriptionStatus extends IcsSubscription {
  type: 'remote' | 'local';
  lastFetched: string | null;
  lastError: string | null;
  /** The feed's copy leaves out events that could not be read: how many, and why the first. */
  lastWarning: string | null;
}

/**
 * What a subscription's status says of what the feed's copy leaves out: events that could not be
 * read, and instances of series with more occurrences than are expanded. Undefined when nothing.
 */
function feedWarning({ skipped, firstError, cutShort = 0, firstCutShort }: ParsedIcs): string | undefined {
  const parts: string[] = [];
  if (skipped > 0) {
    const why = firstError ? `: ${firstError}` : '';
    parts.push(
      skipped === 1
        ? `1 event could not be read and was left out${why}`
        : `${skipped} events could not be read and were left out; the first${why}`,
    );
  }
  if (cutShort > 0 && firstCutShort) {
    const which = firstCutShort.name === undefined ? 'a recurring event' : `event "${firstCutShort.name}"`;
    const where = `${which} after ${firstCutShort.after}`;
    parts.push(
      cutShort === 1
        ? `1 recurring event has more occurrences than are expanded and was cut short: ${where}`
        : `${cutShort} recurring events have more occurrences than are expanded and were cut short; the first: ${where}`,
    );
  }
  return parts.length === 0 ? undefined : parts.join('; ');
}

export interface IcsSubscriptionsDeps {
  settings: SettingsStore;
  cache: SubscriptionCache;
  clock: Clock;
  log: Logger;
  vault: VaultPathPolicy;
  http: HttpClient;
  fetchTimeoutMs?: number;
  /** Time and memory a feed's reading may take (ics-parse-bounded.ts; tests lower them). */
  parseLimits?: IcsParseLimits;
}

/** A stale copy is still served for this long after it expires, while a refresh runs. */
const GRACE_MS = 5 * 60_000;
/** After a failed fetch, requests do not wait for another attempt this soon; the timer retries. */
const RETRY_AFTER_MS = 60_000;

const MUTABLE_FIELDS = new Set(['name', 'url', 'filePath', 'type', 'color', 'enabled', 'refreshInterval']);

const newId = (now: number): string =>
  `ics_${BigInt(`0x${randomBytes(6).toString('hex')}`).toString(36)}${now.toString(36)}`;

export class IcsSubscriptions {
  private readonly timers = new Map<string, { handle: TimerHandle; signature: string }>();
  private readonly inFlight = new Map<string, Promise<CacheEntry>>();
  private readonly attemptedAt = new Map<string, number>();
  private unsubscribe: (() => void) | undefined;
  private stopped = false;
  /**
   * Cancels in-flight feed requests and reads (interrupt, stop), so that a stop waits neither for
   * a slow server nor for a feed being read on its thread.
   */
  private readonly shutdown = new AbortController();

  constructor(private readonly deps: IcsSubscriptionsDeps) {}

  private subs(): IcsSubscription[] {
    return this.deps.settings.get().icsSubscriptions;
  }

  private find(id: string): IcsSubscription {
    const sub = this.subs().find((s) => s.id === id);
    if (!sub) throw notFound('Subscription not found');
    return sub;
  }

  /** Arms refresh timers and fetches every enabled feed that has no fresh copy, in the background. */
  async start(): Promise<void> {
    this.syncTimers();
    this.unsubscribe = this.deps.settings.onChange(() => this.syncTimers());
    const now = this.deps.clock.now();
    for (const sub of this.subs().filter((s) => s.enabled)) {
      const entry = await this.deps.cache.get(sub.id);
      if (!entry?.fetchedAt || now - entry.fetchedAt > sub.refreshInterval * 60_000) {
        void this.refreshQuietly(sub.id);
      }
    }
  }

  /**
   * Gives up the fetches and reads under way (the first step of the server's stop): requests
   * waiting on one answer at once, and what they fetched is not kept.
   */
  interrupt(): void {
    this.shutdown.abort();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    for (const { handle } of this.timers.values()) handle.cancel();
    this.timers.clear();
    this.interrupt();
    await Promise.allSettled(this.inFlight.values());
  }

  async list(): Promise<SubscriptionStatus[]> {
    return Promise.all(this.subs().map((s) => this.status(s)));
  }

  async get(id: string): Promise<SubscriptionStatus> {
    return this.status(this.find(id));
  }

  async add(input: unknown): Promise<SubscriptionStatus> {
    const fields = this.checkFields(input, true);
    const sub: IcsSubscription = this.validate({
      id: newId(this.deps.clock.now()),
      name: '',
      color: '#6495ED',
      enabled: true,
      refreshInterval: 60,
      ...fields,
    });
    await this.deps.settings.update((draft) => {
      draft.icsSubscriptions.push(sub);
    });
    if (sub.enabled) void this.refreshQuietly(sub.id);
    return this.status(sub);
  }

  async update(id: string, patch: unknown): Promise<SubscriptionStatus> {
    const current = this.find(id);
    const fields = this.checkFields(patch, false);
    const merged: IcsSubscription = { ...current, ...fields };
    // Switching between a URL and a vault file replaces the other source.
    if ('url' in fields && !('filePath' in fields)) delete merged.filePath;
    if ('filePath' in fields && !('url' in fields)) delete merged.url;
    if (!('type' in fields)) delete merged.type;
    const next = this.validate(merged);
    const sourceChanged = next.url !== current.url || next.filePath !== current.filePath;
    await this.deps.settings.update((draft) => {
      const i = draft.icsSubscriptions.findIndex((s) => s.id === id);
      if (i < 0) throw notFound('Subscription not found');
      draft.icsSubscriptions[i] = next;
    });
    if (sourceChanged) await this.deps.cache.remove(id);
    if (next.enabled && (sourceChanged || !current.enabled)) void this.refreshQuietly(id);
    return this.status(next);
  }

  async remove(id: string): Promise<void> {
    this.find(id);
    await this.deps.settings.update((draft) => {
      draft.icsSubscriptions = draft.icsSubscriptions.filter((s) => s.id !== id);
    });
    await this.deps.cache.remove(id);
    this.attemptedAt.delete(id);
  }

  /** Fetches now; resolves with the status, including `lastError` when the fetch failed. */
  async refresh(id: string): Promise<SubscriptionStatus> {
    const sub = this.find(id);
    await this.fetch(sub.id);
    return this.status(this.find(id));
  }

  /** Events of every enabled subscription whose copy is fresh, following the reference rules. */
  async events(): Promise<CalendarEvent[]> {
    const lists = await Promise.all(
      this.subs()
        .filter((s) => s.enabled)
        .map((s) => this.eventsOf(s)),
    );
    return lists.flat();
  }

  private async eventsOf(sub: IcsSubscription): Promise<CalendarEvent[]> {
    const now = this.deps.clock.now();
    let entry = await this.deps.cache.get(sub.id);
    const ttl = sub.refreshInterval * 60_000;
    const localChanged =
      sub.filePath !== undefined &&
      entry?.fetchedAt != null &&
      (await localMtime(sub, this.deps.vault)) !== entry.sourceMtimeMs;
    const age = entry?.fetchedAt != null ? now - entry.fetchedAt : Infinity;
    if (!localChanged && age <= ttl) return entry?.events ?? [];
    if (!localChanged && age <= ttl + GRACE_MS) {
      void this.refreshQuietly(sub.id);
      return entry?.events ?? [];
    }
    const lastTry = this.attemptedAt.get(sub.id);
    if (lastTry !== undefined && now - lastTry < RETRY_AFTER_MS && entry?.lastError) return [];
    entry = await this.fetch(sub.id);
    return entry.lastError === null ? entry.events : [];
  }

  private async status(sub: IcsSubscription): Promise<SubscriptionStatus> {
    const entry = await this.deps.cache.get(sub.id);
    return {
      ...sub,
      type: sub.filePath !== undefined ? 'local' : 'remote',
      lastFetched: entry?.lastFetched ?? null,
      lastError: entry?.lastError ?? null,
      lastWarning: entry?.lastWarning ?? null,
    };
  }

  private refreshQuietly(id: string): Promise<void> {
    return this.fetch(id).then(
      () => undefined,
      (err: unknown) => this.deps.log.warn({ err, subscription: id }, 'calendar refresh failed'),
    );
  }

  /** One fetch per subscription at a time; concurrent callers share it. */
  private fetch(id: string): Promise<CacheEntry> {
    const running = this.inFlight.get(id);
    if (running) return running;
    const work = this.doFetch(id).finally(() => this.inFlight.delete(id));
    this.inFlight.set(id, work);
    return work;
  }

  private async doFetch(id: string): Promise<CacheEntry> {
    const sub = this.find(id);
    const { clock, cache, log } = this.deps;
    this.attemptedAt.set(id, clock.now());
    const previous = await cache.get(id);
    let entry: CacheEntry;
    try {
      const source = await fetchIcsSource(sub, {
        vault: this.deps.vault,
        http: this.deps.http,
        timeoutMs: this.deps.fetchTimeoutMs ?? 15_000,
        signal: this.shutdown.signal,
      });
      const now = clock.now();
      const parsed = await parseIcsBounded(
        source.text,
        { subscriptionId: sub.id, now },
        { ...this.deps.parseLimits, signal: this.shutdown.signal },
      );
      entry = {
        events: parsed.events,
        fetchedAt: now,
        lastFetched: new Date(now).toISOString(),
        lastError: null,
      };
      const warning = feedWarning(parsed);
      if (warning !== undefined) {
        entry.lastWarning = warning;
        log.warn({ subscription: id, warning }, 'ICS subscription: events left out');
      }
      if (source.mtimeMs !== undefined) entry.sourceMtimeMs = source.mtimeMs;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (!this.shutdown.signal.aborted) {
        log.warn({ subscription: id, error: message }, 'ICS subscription fetch failed');
      }
      entry = {
        events: previous?.events ?? [],
        fetchedAt: previous?.fetchedAt ?? null,
        lastFetched: previous?.lastFetched ?? null,
        lastError: message,
      };
      if (previous?.sourceMtimeMs !== undefined) entry.sourceMtimeMs = previous.sourceMtimeMs;
      // The copy kept is the previous one, with what it left out.
      if (previous?.lastWarning !== undefined) entry.lastWarning = previous.lastWarning;
    }
    // The subscription may have been removed or re-pointed while the fetch ran.
    const still = this.subs().find((s) => s.id === id);
    // Nor is a fetch given up for the stop a failure of the feed.
    if (still && still.url === sub.url && still.filePath === sub.filePath && !this.shutdown.signal.aborted) {
      await cache.set(id, entry);
    }
    return entry;
  }

  /** Keeps one timer per enabled subscription; re-arms only those whose schedule changed. */
  private syncTimers(): void {
    if (this.stopped) return;
    const wanted = new Map(
      this.subs()
        .filter((s) => s.enabled)
        .map((s) => [s.id, `${s.refreshInterval}|${s.url ?? ''}|${s.filePath ?? ''}`]),
    );
    for (const [id, timer] of this.timers) {
      if (wanted.get(id) !== timer.signature) {
        timer.handle.cancel();
        this.timers.delete(id);
      }
    }
    for (const [id, signature] of wanted) {
      if (!this.timers.has(id)) this.arm(id, signature);
    }
  }

  /** Fixed-rate schedule: the next run is armed when one fires; a slow fetch is joined, not doubled. */
  private arm(id: string, signature: string): void {
    const sub = this.subs().find((s) => s.id === id);
    if (!sub) return;
    const handle = this.deps.clock.setTimer(sub.refreshInterval * 60_000, () => {
      this.timers.delete(id);
      if (this.stopped) return;
      this.arm(id, signature);
      void this.refreshQuietly(id);
    });
    this.timers.set(id, { handle, signature });
  }

  private checkFields(input: unknown, creating: boolean): Partial<IcsSubscription> {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      throw invalid('Subscription must be a JSON object');
    }
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(input)) {
      if (key === 'id' && !creating) continue;
      if (!MUTABLE_FIELDS.has(key)) throw invalid(`Unknown subscription field "${key}"`, { field: key });
      if (value !== undefined) out[key] = value;
    }
    return out as Partial<IcsSubscription>;
  }

  private validate(s: IcsSubscription): IcsSubscription {
    if (typeof s.name !== 'string' || s.name.trim() === '')
      throw invalid('Subscription name is required', { field: 'name' });
    const hasUrl = s.url !== undefined;
    const hasFile = s.filePath !== undefined;
    if (hasUrl === hasFile) {
      throw invalid('Provide either url (remote feed) or filePath (a .ics file in the vault), not both', {
        field: 'url',
      });
    }
    const out: IcsSubscription = {
      id: s.id,
      name: s.name.trim(),
      type: hasUrl ? 'remote' : 'local',
      color: s.color,
      enabled: s.enabled,
      refreshInterval: s.refreshInterval,
    };
    if (s.type !== undefined && s.type !== out.type) {
      throw invalid('type must be "remote" with url or "local" with filePath', { field: 'type' });
    }
    if (hasUrl) out.url = this.checkUrl(s.url);
    else out.filePath = this.checkFile(s.filePath);
    if (typeof s.color !== 'string' || s.color.trim() === '')
      throw invalid('color must be a non-empty string', { field: 'color' });
    if (typeof s.enabled !== 'boolean') throw invalid('enabled must be a boolean', { field: 'enabled' });
    if (
      typeof s.refreshInterval !== 'number' ||
      !Number.isFinite(s.refreshInterval) ||
      s.refreshInterval < 1
    ) {
      throw invalid('refreshInterval must be a number of minutes, at least 1', { field: 'refreshInterval' });
    }
    return out;
  }

  private checkUrl(url: unknown): string {
    const message = 'Subscription URL must be an absolute http, https or webcal URL';
    if (typeof url !== 'string') throw invalid(message, { field: 'url' });
    let parsed: URL;
    try {
      parsed = new URL(url.trim());
    } catch {
      throw invalid(message, { field: 'url' });
    }
    if (!['http:', 'https:', 'webcal:'].includes(parsed.protocol)) throw invalid(message, { field: 'url' });
    return url.trim();
  }

  /** Vault-relative `.ics` path; an absolute path inside the vault is rewritten as relative. */
  private checkFile(filePath: unknown): string {
    const message = 'Subscription file must be a .ics file inside the vault';
    if (typeof filePath !== 'string' || filePath.trim() === '') throw invalid(message, { field: 'filePath' });
    let rel = filePath.trim();
    if (path.isAbsolute(rel)) {
      const relative = path.relative(this.deps.vault.root, rel);
      if (relative.startsWith('..') || path.isAbsolute(relative))
        throw invalid(message, { field: 'filePath' });
      rel = relative.split(path.sep).join('/');
    }
    let resolved: string;
    try {
      resolved = resolveVaultPath(this.deps.vault, rel, 'ICS file').rel;
    } catch {
      throw invalid(message, { field: 'filePath' });
    }
    if (!resolved.toLowerCase().endsWith('.ics')) throw invalid(message, { field: 'filePath' });
    return resolved;
  }
}
