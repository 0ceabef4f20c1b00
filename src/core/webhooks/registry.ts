/**
 * The set of webhooks, stored in the settings file's `webhooks` slice (SettingsStore), so the
 * API and the settings page manage the same set and it survives restarts.
 *
 * Counters change on every delivery attempt. Writing settings.json (fsync + rename) that often
 * would make persistence the bottleneck, so counter changes are kept as in-memory deltas on top
 * of the stored webhooks and folded into the file by one coalesced save at most every
 * `saveDelayMs` (and at shutdown). Every other change (create, update, enable, remove) also
 * folds the pending deltas first, so it always works on the true counters. Readers see the
 * stored value plus the deltas, so counters and auto-disable take effect at once.
 */
import type { Clock, TimerHandle } from '../clock.js';
import { notFound } from '../errors.js';
import type { Logger } from '../logger.js';
import type { Settings, SettingsStore } from '../state/settings.js';
import type { DeliveryLog } from './delivery-log.js';
import { generateId, generateSecret } from './signer.js';
import type { DeliveryRecord, PublicWebhook, WebhookConfig, WebhookInput, WebhookPatch } from './types.js';
import { checkActive, checkInput, checkPatch, WEBHOOK_MESSAGES } from './validation.js';

export { WEBHOOK_MESSAGES };

/** A webhook is disabled as soon as its cumulative failureCount exceeds this. */
export const AUTO_DISABLE_THRESHOLD = 10;
const DEFAULT_SAVE_DELAY_MS = 250;

/**
 * One version of a webhook. Re-POSTing an id or removing it starts a new generation, so late
 * results of deliveries made for the old version never count against the new one.
 */
export interface WebhookRef {
  id: string;
  generation: number;
}

interface CounterDelta {
  success: number;
  failure: number;
  lastTriggered?: string;
  disable: boolean;
}

export interface WebhookRegistryDeps {
  settings: SettingsStore;
  clock: Clock;
  log: Logger;
  deliveries: DeliveryLog;
  saveDelayMs?: number;
}

export class WebhookRegistry {
  private pending = new Map<string, CounterDelta>();
  /** Deltas folded into a save that has not completed yet; still needed by readers. */
  private inFlight = new Map<string, CounterDelta>();
  private savingDraft: Settings | undefined;
  private readonly generations = new Map<string, number>();
  private nextGeneration = 1;
  private saveTimer: TimerHandle | undefined;
  private readonly listeners = new Set<() => void>();
  private readonly saveDelayMs: number;

  constructor(private readonly deps: WebhookRegistryDeps) {
    this.saveDelayMs = deps.saveDelayMs ?? DEFAULT_SAVE_DELAY_MS;
    deps.settings.onChange((next) => {
      if (next === this.savingDraft) {
        this.inFlight = new Map();
        this.savingDraft = undefined;
      }
    });
  }

  // ---- management (HTTP routes and the settings page) ----

  /** Every webhook, active or not, in stored order, without secrets. */
  list(): PublicWebhook[] {
    return this.deps.settings.get().webhooks.map((hook) => toPublic(this.effective(hook)));
  }

  get(id: string): PublicWebhook {
    const hook = this.find(id);
    if (!hook) throw notFound(WEBHOOK_MESSAGES.notFound);
    return toPublic(hook);
  }

  /**
   * Registers a webhook and returns it with its secret (the only time the secret is handed out).
   * An existing id is replaced in place: active unless `active: false`, counters reset.
   */
  async create(input: WebhookInput): Promise<WebhookConfig> {
    checkInput(input);
    const now = this.deps.clock.now();
    const hook: WebhookConfig = {
      id: input.id || generateId('wh', now),
      url: input.url,
      events: [...input.events],
      secret: input.secret || generateSecret(),
      active: input.active !== false,
      ...(input.transformFile ? { transformFile: input.transformFile } : {}),
      corsHeaders: input.corsHeaders !== false,
      failureCount: 0,
      successCount: 0,
      createdAt: new Date(now).toISOString(),
    };
    await this.mutate((hooks) => {
      const index = hooks.findIndex((h) => h.id === hook.id);
      if (index >= 0) hooks[index] = hook;
      else hooks.push(hook);
      this.generations.set(hook.id, this.nextGeneration++);
    });
    this.changed();
    return { ...hook, events: [...hook.events] };
  }

  /** Changes url, events, transform file or custom headers; `transformFile` null or '' clears it. */
  async update(id: string, patch: WebhookPatch): Promise<PublicWebhook> {
    checkPatch(patch);
    const updated = await this.mutate((hooks) => {
      const hook = hooks.find((h) => h.id === id);
      if (!hook) throw notFound(WEBHOOK_MESSAGES.notFound);
      if (patch.url !== undefined) hook.url = patch.url;
      if (patch.events !== undefined) hook.events = [...patch.events];
      if (patch.corsHeaders !== undefined) hook.corsHeaders = patch.corsHeaders;
      if (patch.transformFile === null || patch.transformFile === '') delete hook.transformFile;
      else if (patch.transformFile !== undefined) hook.transformFile = patch.transformFile;
      return toPublic(hook);
    });
    this.changed();
    return updated;
  }

  /** Enables or disables; re-enabling a disabled webhook resets its failureCount to 0. */
  async setActive(id: string, active: boolean): Promise<PublicWebhook> {
    checkActive(active);
    const updated = await this.mutate((hooks) => {
      const hook = hooks.find((h) => h.id === id);
      if (!hook) throw notFound(WEBHOOK_MESSAGES.notFound);
      if (active && !hook.active) hook.failureCount = 0;
      hook.active = active;
      return toPublic(hook);
    });
    this.changed();
    return updated;
  }

  async remove(id: string): Promise<void> {
    await this.mutate((hooks) => {
      const index = hooks.findIndex((h) => h.id === id);
      if (index < 0) throw notFound(WEBHOOK_MESSAGES.notFound);
      hooks.splice(index, 1);
      this.generations.set(id, this.nextGeneration++);
    });
    this.changed();
  }

  /** The last 100 deliveries, oldest first. */
  deliveries(): DeliveryRecord[] {
    return this.deps.deliveries.list();
  }

  /** Called after every management change (not after counter updates). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // ---- delivery engine ----

  /**
   * Active webhooks subscribed to `event`. Runs for every event, so it avoids building the
   * counter view: `hook` is the stored config, whose counters may lag behind (use get()).
   */
  subscribers(event: string): Array<{ ref: WebhookRef; hook: WebhookConfig }> {
    const out: Array<{ ref: WebhookRef; hook: WebhookConfig }> = [];
    for (const hook of this.deps.settings.get().webhooks) {
      if (hook.events.includes(event) && this.isActive(hook)) {
        out.push({ ref: { id: hook.id, generation: this.generation(hook.id) }, hook });
      }
    }
    return out;
  }

  /**
   * That version of the webhook as stored (counters may lag) and whether it is active now;
   * undefined once it was removed or replaced.
   */
  lookup(ref: WebhookRef): { hook: WebhookConfig; active: boolean } | undefined {
    if (this.generation(ref.id) !== ref.generation) return undefined;
    const hook = this.deps.settings.get().webhooks.find((h) => h.id === ref.id);
    return hook && { hook, active: this.isActive(hook) };
  }

  recordSuccess(ref: WebhookRef, at: string): void {
    if (this.generation(ref.id) !== ref.generation) return;
    const delta = this.delta(ref.id);
    delta.success++;
    delta.lastTriggered = at;
    this.scheduleSave();
  }

  /**
   * Counts one failed attempt and disables the webhook as soon as the cumulative count exceeds
   * the threshold. Returns the webhook as it now stands (undefined when removed or replaced).
   */
  recordFailure(ref: WebhookRef): WebhookConfig | undefined {
    const hook = this.current(ref);
    if (!hook) return undefined;
    const delta = this.delta(ref.id);
    delta.failure++;
    if (hook.active && hook.failureCount + 1 > AUTO_DISABLE_THRESHOLD) {
      delta.disable = true;
      this.deps.log.warn(
        { webhookId: ref.id, failureCount: hook.failureCount + 1 },
        'webhook disabled after too many failed deliveries',
      );
    }
    this.scheduleSave();
    return this.current(ref);
  }

  /** Persists pending counter changes now (shutdown). */
  async flush(): Promise<void> {
    this.saveTimer?.cancel();
    this.saveTimer = undefined;
    if (this.pending.size > 0) await this.mutate(() => undefined);
  }

  // ---- internals ----

  private generation(id: string): number {
    let generation = this.generations.get(id);
    if (generation === undefined) this.generations.set(id, (generation = this.nextGeneration++));
    return generation;
  }

  private isActive(stored: WebhookConfig): boolean {
    return stored.active && !this.pending.get(stored.id)?.disable && !this.inFlight.get(stored.id)?.disable;
  }

  /** That version of the webhook with its current counters. */
  private current(ref: WebhookRef): WebhookConfig | undefined {
    return this.generation(ref.id) === ref.generation ? this.find(ref.id) : undefined;
  }

  private find(id: string): WebhookConfig | undefined {
    const stored = this.deps.settings.get().webhooks.find((h) => h.id === id);
    return stored && this.effective(stored);
  }

  private effective(stored: WebhookConfig): WebhookConfig {
    const saving = this.inFlight.get(stored.id);
    const pending = this.pending.get(stored.id);
    if (!saving && !pending) return stored;
    const hook = { ...stored };
    if (saving) applyDelta(hook, saving);
    if (pending) applyDelta(hook, pending);
    return hook;
  }

  private delta(id: string): CounterDelta {
    let delta = this.pending.get(id);
    if (!delta) this.pending.set(id, (delta = { success: 0, failure: 0, disable: false }));
    return delta;
  }

  private scheduleSave(): void {
    if (this.saveTimer) return;
    this.saveTimer = this.deps.clock.setTimer(this.saveDelayMs, () => {
      this.saveTimer = undefined;
      this.mutate(() => undefined).catch((err: unknown) =>
        this.deps.log.error({ err }, 'saving webhook counters failed; will retry with the next change'),
      );
    });
  }

  /**
   * Runs one settings update on the webhooks slice with the pending counter deltas folded in
   * first. If the update fails (bad input, write error) the deltas go back to pending.
   */
  private async mutate<T>(change: (hooks: WebhookConfig[]) => T): Promise<T> {
    let taken: Map<string, CounterDelta> | undefined;
    try {
      return await this.deps.settings.update((draft) => {
        taken = this.pending;
        this.pending = new Map();
        this.inFlight = taken;
        this.savingDraft = draft;
        for (const hook of draft.webhooks) {
          const delta = taken.get(hook.id);
          if (delta) applyDelta(hook, delta);
        }
        return change(draft.webhooks);
      });
    } catch (err) {
      if (taken) {
        this.inFlight = new Map();
        this.savingDraft = undefined;
        for (const [id, delta] of taken) mergeDelta(this.delta(id), delta);
      }
      throw err;
    }
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}

function applyDelta(hook: WebhookConfig, delta: CounterDelta): void {
  hook.successCount += delta.success;
  hook.failureCount += delta.failure;
  if (delta.lastTriggered !== undefined) hook.lastTriggered = delta.lastTriggered;
  if (delta.disable) hook.active = false;
}

function mergeDelta(into: CounterDelta, from: CounterDelta): void {
  into.success += from.success;
  into.failure += from.failure;
  if (from.lastTriggered !== undefined && (into.lastTriggered ?? '') < from.lastTriggered) {
    into.lastTriggered = from.lastTriggered;
  }
  into.disable ||= from.disable;
}

export function toPublic(hook: WebhookConfig): PublicWebhook {
  const { secret: _secret, ...rest } = hook;
  return { ...rest, events: [...rest.events] };
}
