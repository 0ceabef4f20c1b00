/**
 * The webhooks, stored in the store's `webhooks` table and mirrored in memory (there are few,
 * and every event asks which ones subscribe). The API and the settings page manage the same set
 * through this class. Every change is written first and mirrored after its commit.
 *
 * Counters are written by the delivery engine in the same transaction as the delivery outcomes
 * they count (`counterUpdate`, then `applyCounters` once committed), so a crash can never leave
 * them disagreeing with the delivery log. Every write goes through the store's group commit,
 * committed before the caller goes on.
 */
import type { Clock } from '../clock.js';
import { conflict, invalid, notFound } from '../errors.js';
import type { EventName } from '../events/catalogue.js';
import type { SqliteDatabase, Store } from '../store/database.js';
import { AddressRefused, type AddressGuard } from '../net/address-guard.js';
import { generateId, generateSecret, isStandardSecret } from './signer.js';
import type {
  PublicWebhook,
  SigningScheme,
  Webhook,
  WebhookInput,
  WebhookPatch,
  WebhookWithSecret,
} from './types.js';
import {
  checkActive,
  checkGraceSeconds,
  checkInput,
  checkPatch,
  checkStandardSecret,
  DEFAULT_RETRY_SCHEDULE,
  WEBHOOK_MESSAGES,
} from './validation.js';

/** A webhook is disabled as soon as its count of finally failed deliveries exceeds this. */
export const AUTO_DISABLE_THRESHOLD = 10;
export const DEFAULT_GRACE_SECONDS = 86_400;

export type WebhookChange = 'created' | 'replaced' | 'updated' | 'enabled' | 'disabled' | 'removed';

/** Counter changes of one webhook from one batch of delivery outcomes. */
export interface CounterDelta {
  success: number;
  failure: number;
  lastTriggered?: number;
  disable: boolean;
}

interface Row {
  id: string;
  url: string;
  events: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: number | null;
  active: number;
  transform_file: string | null;
  cors_headers: number;
  signing: SigningScheme;
  retry_schedule: string;
  failure_count: number;
  success_count: number;
  created_at: number;
  last_triggered: number | null;
}

export interface WebhookRegistryDeps {
  store: Store;
  clock: Clock;
  guard: AddressGuard;
}

export class WebhookRegistry {
  private readonly db: SqliteDatabase;
  /** In stored order; replacing a webhook keeps its place. */
  private readonly hooks = new Map<string, Webhook>();
  /**
   * One number per version of a webhook: replacing (re-POSTing) or removing one starts a new
   * generation, so late results of attempts made for the old version never count against the new.
   */
  private readonly generations = new Map<string, number>();
  private nextGeneration = 1;
  private readonly listeners = new Set<(id: string, change: WebhookChange) => void>();
  private readonly upsert;
  private readonly counters;
  private readonly selectAll;
  /** Whether a reload after this turn's commit is arranged (see persist). */
  private reloadArranged = false;

  constructor(private readonly deps: WebhookRegistryDeps) {
    this.db = deps.store.db;
    this.upsert = this.db.prepare(
      `INSERT INTO webhooks (id, url, events, secret, previous_secret, previous_secret_expires_at, active,
         transform_file, cors_headers, signing, retry_schedule, failure_count, success_count, created_at,
         last_triggered)
       VALUES (@id, @url, @events, @secret, @previous_secret, @previous_secret_expires_at, @active,
         @transform_file, @cors_headers, @signing, @retry_schedule, @failure_count, @success_count,
         @created_at, @last_triggered)
       ON CONFLICT (id) DO UPDATE SET url = excluded.url, events = excluded.events, secret = excluded.secret,
         previous_secret = excluded.previous_secret,
         previous_secret_expires_at = excluded.previous_secret_expires_at, active = excluded.active,
         transform_file = excluded.transform_file, cors_headers = excluded.cors_headers,
         signing = excluded.signing, retry_schedule = excluded.retry_schedule,
         failure_count = excluded.failure_count, success_count = excluded.success_count,
         created_at = excluded.created_at, last_triggered = excluded.last_triggered`,
    );
    this.counters = this.db.prepare<[number, number, number | null, number, string]>(
      `UPDATE webhooks SET success_count = success_count + ?, failure_count = failure_count + ?,
         last_triggered = coalesce(?, last_triggered), active = active AND NOT ? WHERE id = ?`,
    );
    this.selectAll = this.db.prepare<[], Row>('SELECT * FROM webhooks ORDER BY rowid');
    for (const row of this.selectAll.all()) this.hooks.set(row.id, fromRow(row));
  }

  // ---- management (HTTP routes and the settings page) ----

  /** Every webhook, active or not, in stored order, without secrets. */
  list(): PublicWebhook[] {
    const now = this.deps.clock.now();
    return [...this.hooks.values()].map((hook) => toPublic(hook, now));
  }

  get(id: string): PublicWebhook {
    return toPublic(this.require(id), this.deps.clock.now());
  }

  /** The stored webhook, secrets included (for the delivery engine). */
  find(id: string): Webhook | undefined {
    return this.hooks.get(id);
  }

  /**
   * Registers a webhook and returns it with its secret (the only time the secret is handed out).
   * An existing id is replaced in place: active unless `active: false`, counters reset.
   */
  async create(input: WebhookInput): Promise<WebhookWithSecret> {
    checkInput(input);
    await this.checkTarget(input.url);
    const now = this.deps.clock.now();
    const signing = input.signing ?? 'taskdown';
    const hook: Webhook = {
      id: input.id || generateId('wh', now),
      url: input.url,
      events: [...input.events] as EventName[],
      secret: input.secret || generateSecret(signing),
      active: input.active !== false,
      ...(input.transformFile ? { transformFile: input.transformFile } : {}),
      corsHeaders: input.corsHeaders !== false,
      signing,
      retrySchedule: [...(input.retrySchedule ?? DEFAULT_RETRY_SCHEDULE)],
      failureCount: 0,
      successCount: 0,
      createdAt: now,
    };
    const replaced = this.hooks.has(hook.id);
    this.write(hook);
    this.generations.set(hook.id, this.nextGeneration++);
    this.changed(hook.id, replaced ? 'replaced' : 'created');
    return { ...toPublic(hook, now), secret: hook.secret };
  }

  /**
   * Changes the settings of a webhook; its secret and counters stay. Switching `active` on resets
   * `failureCount`, as re-enabling does.
   */
  async update(id: string, patch: WebhookPatch): Promise<PublicWebhook> {
    checkPatch(patch);
    this.require(id);
    if (patch.url !== undefined) await this.checkTarget(patch.url);
    const current = this.require(id); // again: it may have changed while the URL was checked
    const hook: Webhook = { ...current };
    if (patch.url !== undefined) hook.url = patch.url;
    if (patch.events !== undefined) hook.events = [...patch.events] as EventName[];
    if (patch.corsHeaders !== undefined) hook.corsHeaders = patch.corsHeaders;
    if (patch.transformFile === null || patch.transformFile === '') delete hook.transformFile;
    else if (patch.transformFile !== undefined) hook.transformFile = patch.transformFile;
    if (patch.retrySchedule !== undefined) hook.retrySchedule = [...patch.retrySchedule];
    if (patch.signing !== undefined) {
      if (patch.signing === 'standard' && !isStandardSecret(hook.secret)) checkStandardSecret(hook.secret);
      hook.signing = patch.signing;
    }
    const enabling = patch.active === true && !hook.active;
    if (patch.active !== undefined) hook.active = patch.active;
    if (enabling) hook.failureCount = 0;
    this.write(hook);
    this.changed(
      id,
      enabling ? 'enabled' : patch.active === false && current.active ? 'disabled' : 'updated',
    );
    return toPublic(hook, this.deps.clock.now());
  }

  /** Enables or disables; re-enabling a disabled webhook resets its failureCount to 0. */
  setActive(id: string, active: boolean): PublicWebhook {
    checkActive(active);
    const hook = { ...this.require(id) };
    const was = hook.active;
    if (active && !was) hook.failureCount = 0;
    hook.active = active;
    this.write(hook);
    if (active !== was) this.changed(id, active ? 'enabled' : 'disabled');
    return toPublic(hook, this.deps.clock.now());
  }

  remove(id: string): void {
    this.require(id);
    const statement = this.db.prepare('DELETE FROM webhooks WHERE id = ?');
    this.persist(() => statement.run(id));
    this.hooks.delete(id);
    this.generations.set(id, this.nextGeneration++);
    this.changed(id, 'removed');
  }

  /**
   * Replaces the secret with a new one of the webhook's scheme. For `graceSeconds` (default a
   * day) deliveries are signed with the previous secret too, so receivers can switch over.
   */
  rotateSecret(
    id: string,
    graceSeconds: number = DEFAULT_GRACE_SECONDS,
  ): { secret: string; previousSecretExpiresAt: string } {
    checkGraceSeconds(graceSeconds);
    const now = this.deps.clock.now();
    const hook = { ...this.require(id) };
    const expiresAt = now + graceSeconds * 1000;
    if (graceSeconds > 0) {
      hook.previousSecret = hook.secret;
      hook.previousSecretExpiresAt = expiresAt;
    } else {
      delete hook.previousSecret;
      delete hook.previousSecretExpiresAt;
    }
    hook.secret = generateSecret(hook.signing);
    this.write(hook);
    this.changed(id, 'updated');
    return { secret: hook.secret, previousSecretExpiresAt: new Date(expiresAt).toISOString() };
  }

  /** Hears of every management change (not of counter updates). */
  onChange(listener: (id: string, change: WebhookChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Moves webhooks kept in an older release's settings file into the store, with their
   * secrets and counters; ids already in the store are left alone.
   */
  importLegacy(hooks: readonly Webhook[]): void {
    for (const hook of hooks) if (!this.hooks.has(hook.id)) this.write(hook);
  }

  // ---- delivery engine ----

  /** Active webhooks subscribed to `event`. */
  subscribers(event: string): Webhook[] {
    const out: Webhook[] = [];
    for (const hook of this.hooks.values()) {
      if (hook.active && (hook.events as string[]).includes(event)) out.push(hook);
    }
    return out;
  }

  /** The current generation of a webhook id (see `generations`). */
  generation(id: string): number {
    let generation = this.generations.get(id);
    if (generation === undefined) this.generations.set(id, (generation = this.nextGeneration++));
    return generation;
  }

  /** The previous secret while its grace period lasts. */
  previousSecret(hook: Webhook, now: number): string | undefined {
    return hook.previousSecret && (hook.previousSecretExpiresAt ?? 0) > now ? hook.previousSecret : undefined;
  }

  /** Writes counter changes; call in the transaction that records the outcomes counted. */
  counterUpdate(id: string, delta: CounterDelta): void {
    this.counters.run(delta.success, delta.failure, delta.lastTriggered ?? null, delta.disable ? 1 : 0, id);
  }

  /** Mirrors counter changes once their transaction committed. */
  applyCounters(id: string, delta: CounterDelta): void {
    const hook = this.hooks.get(id);
    if (!hook) return;
    const next = { ...hook };
    next.successCount += delta.success;
    next.failureCount += delta.failure;
    if (delta.lastTriggered !== undefined) next.lastTriggered = delta.lastTriggered;
    if (delta.disable) next.active = false;
    this.hooks.set(id, next);
    if (delta.disable && hook.active) this.changed(id, 'disabled');
  }

  // ---- internals ----

  private require(id: string): Webhook {
    const hook = this.hooks.get(id);
    if (!hook) throw notFound(WEBHOOK_MESSAGES.notFound);
    return hook;
  }

  private async checkTarget(url: string): Promise<void> {
    try {
      await this.deps.guard.checkUrl(url);
    } catch (err) {
      if (err instanceof AddressRefused) {
        throw invalid(`Webhook URL is not allowed: ${err.message}`, { field: 'url' });
      }
      throw err;
    }
  }

  private write(hook: Webhook): void {
    this.persist(() => this.upsert.run(toRow(hook)));
    this.hooks.set(hook.id, hook);
  }

  /**
   * Writes a change of the registry. The webhooks in memory change at once (the answer shows
   * them); should the commit fail (the data dir's disk full), they are read back from the store,
   * which rolled the change back, so memory never holds a webhook, secret or switch that a restart
   * would not (the client is answered 503 by EventJournal.recording).
   */
  private persist(write: () => void): void {
    this.deps.store.write(write);
    if (this.reloadArranged) return;
    this.reloadArranged = true;
    this.deps.store.afterCommit((error) => {
      this.reloadArranged = false;
      if (error) this.reload();
    });
  }

  /** Replaces the webhooks in memory with the stored ones, telling the listeners what changed. */
  private reload(): void {
    const before = new Map(this.hooks);
    this.hooks.clear();
    for (const row of this.selectAll.all()) this.hooks.set(row.id, fromRow(row));
    for (const id of new Set([...before.keys(), ...this.hooks.keys()])) {
      if (!this.hooks.has(id)) this.changed(id, 'removed');
      else if (!before.has(id)) this.changed(id, 'created');
      else this.changed(id, 'updated');
    }
  }

  private changed(id: string, change: WebhookChange): void {
    for (const listener of this.listeners) listener(id, change);
  }
}

/** Refuses deliveries for a webhook that is gone or switched off (ping, redeliver). */
export function requireUsable(registry: WebhookRegistry, id: string): Webhook {
  const hook = registry.find(id);
  if (!hook) throw notFound(WEBHOOK_MESSAGES.notFound);
  if (!hook.active) throw conflict(WEBHOOK_MESSAGES.inactive);
  return hook;
}

function fromRow(row: Row): Webhook {
  const hook: Webhook = {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as EventName[],
    secret: row.secret,
    active: row.active === 1,
    corsHeaders: row.cors_headers === 1,
    signing: row.signing,
    retrySchedule: JSON.parse(row.retry_schedule) as number[],
    failureCount: row.failure_count,
    successCount: row.success_count,
    createdAt: row.created_at,
  };
  if (row.previous_secret !== null) hook.previousSecret = row.previous_secret;
  if (row.previous_secret_expires_at !== null) hook.previousSecretExpiresAt = row.previous_secret_expires_at;
  if (row.transform_file !== null) hook.transformFile = row.transform_file;
  if (row.last_triggered !== null) hook.lastTriggered = row.last_triggered;
  return hook;
}

function toRow(hook: Webhook): Row {
  return {
    id: hook.id,
    url: hook.url,
    events: JSON.stringify(hook.events),
    secret: hook.secret,
    previous_secret: hook.previousSecret ?? null,
    previous_secret_expires_at: hook.previousSecretExpiresAt ?? null,
    active: hook.active ? 1 : 0,
    transform_file: hook.transformFile ?? null,
    cors_headers: hook.corsHeaders ? 1 : 0,
    signing: hook.signing,
    retry_schedule: JSON.stringify(hook.retrySchedule),
    failure_count: hook.failureCount,
    success_count: hook.successCount,
    created_at: hook.createdAt,
    last_triggered: hook.lastTriggered ?? null,
  };
}

export function toPublic(hook: Webhook, now: number): PublicWebhook {
  const out: PublicWebhook = {
    id: hook.id,
    url: hook.url,
    events: [...hook.events],
    active: hook.active,
    corsHeaders: hook.corsHeaders,
    signing: hook.signing,
    retrySchedule: [...hook.retrySchedule],
    failureCount: hook.failureCount,
    successCount: hook.successCount,
    createdAt: new Date(hook.createdAt).toISOString(),
  };
  if (hook.transformFile !== undefined) out.transformFile = hook.transformFile;
  if (hook.lastTriggered !== undefined) out.lastTriggered = new Date(hook.lastTriggered).toISOString();
  if (hook.previousSecret && (hook.previousSecretExpiresAt ?? 0) > now) {
    out.previousSecretExpiresAt = new Date(hook.previousSecretExpiresAt as number).toISOString();
  }
  return out;
}
