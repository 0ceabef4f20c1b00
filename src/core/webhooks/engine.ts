/**
 * The delivery engine (docs/webhooks.md, "Delivery"). It sees events only through the event
 * journal, so all 14 events, from the API, the file watcher or timers, are delivered by the same
 * code, and every delivery is durable before the operation that caused it answers:
 * - inside each journal append's transaction it creates one pending delivery per subscribed,
 *   active webhook (`deliveries` rows, due now);
 * - right after the commit it hands them to the webhook's lane, which sends them;
 * - attempt outcomes are written in shared transactions (one per turn of the event loop) with
 *   the counters they change; a failed attempt gets its next time from the webhook's retry
 *   schedule and stays pending in the store until then.
 * A restart finds pending deliveries in the store and sends them with the same id, attempt count
 * and schedule; an attempt cut short by a kill is simply made again (receivers de-duplicate by
 * the delivery id).
 *
 * Each webhook has its own lane: at most `maxInFlight` attempts at once, its own connections,
 * and a window of due deliveries read from the store (never the whole queue in memory), so a
 * receiver that hangs or a webhook with a huge backlog never delays another webhook.
 */
import type { Clock, TimerHandle } from '../clock.js';
import type { JournalEventName } from '../events/catalogue.js';
import type { Logger } from '../logger.js';
import type { Store } from '../store/database.js';
import type { EventJournal, JournalEntry } from '../store/event-journal.js';
import type { DeliveryStore, DueDelivery, Outcome } from './delivery-store.js';
import {
  AUTO_DISABLE_THRESHOLD,
  type CounterDelta,
  type WebhookChange,
  type WebhookRegistry,
} from './registry.js';
import type { AttemptResult, Sender } from './sender.js';
import { signatureHeaders } from './signer.js';
import { applyTransform } from './transformer.js';
import type { DeliveryActivity } from './activity.js';
import type { Attempt, Webhook } from './types.js';
import type { VaultFileReader } from './vault-reader.js';

/** Attempts of one webhook in flight at once. */
export const MAX_IN_FLIGHT = 16;
/** Due deliveries of one webhook held in memory at once; the rest wait in the store. */
const WINDOW = 256;
/** Retry waits from this long on vary by ±10 %, so retries of a burst do not arrive at once. */
const JITTER_FROM_MS = 10_000;
const JITTER = 0.1;
/** After the store failed to record outcomes, a lane waits this long before sending again. */
const STORE_ERROR_PAUSE_MS = 5000;

export interface WebhookEngineDeps {
  store: Store;
  journal: EventJournal;
  registry: WebhookRegistry;
  deliveries: DeliveryStore;
  sender: Sender;
  reader: VaultFileReader;
  clock: Clock;
  log: Logger;
  /** The HTTP API switch: no deliveries while it is off. */
  apiEnabled: () => boolean;
  /** Told whenever deliveries change (created, recorded, sent again, ended). */
  activity: DeliveryActivity;
  maxInFlight?: number;
  /** For the retry jitter; tests fix it. */
  random?: () => number;
}

interface Lane {
  webhookId: string;
  /** Deliveries being attempted, or whose outcome waits for its commit (never read as due). */
  inFlight: Set<string>;
  /** Deliveries whose attempt is on the wire (at most `maxInFlight`); their outcome decides. */
  sending: Set<string>;
  /** Due deliveries read from the store (or just created), not yet attempted. */
  ready: DueDelivery[];
  /** Whether `ready` and `inFlight` hold every due delivery (else the store has more). */
  complete: boolean;
  /**
   * The highest delivery seq the last read from the store could see: newer deliveries join
   * `ready` directly, older ones were read already (appends of one commit are all visible to a
   * read made before their commit is announced).
   */
  seenUpTo: number;
  /**
   * Deliveries sent again while their last outcome waited for its commit: a read skipped them
   * (in flight), so the lane reads the store again once that commit is done.
   */
  again: Set<string>;
  wake?: TimerHandle;
  wakeAt: number;
}

interface Pending {
  lane: Lane;
  outcome: Outcome;
}

export class WebhookEngine {
  private readonly maxInFlight: number;
  private readonly random: () => number;
  private readonly lanes = new Map<string, Lane>();
  /** Outcomes written in this turn's transaction, and the counter changes they make. */
  private batch: Pending[] = [];
  private deltas = new Map<string, CounterDelta>();
  /**
   * Deliveries created inside an append transaction, with their journal entry's seq, oldest first,
   * until the commit. Not a Map: a Map with an entry added and removed for every event kept those
   * deliveries (and their envelopes) alive through young collections into the old generation
   * (docs/performance.md, "Webhooks"). An append that rolled back leaves its entry here; a later
   * one, or the same seq given again, drops it.
   */
  private readonly created: Array<{ seq: number; deliveries: DueDelivery[] }> = [];
  /** The webhook a `webhook.ping` being appended is for. */
  private pingTarget: string | undefined;
  /** No new attempts start once stopping; outcomes are ignored once stopped. */
  private stopping = false;
  private stopped = false;
  /** Called when the last attempt in flight was written, while stopping. */
  private idle: (() => void) | undefined;
  private readonly unsubscribers: Array<() => void> = [];

  constructor(private readonly deps: WebhookEngineDeps) {
    this.maxInFlight = deps.maxInFlight ?? MAX_IN_FLIGHT;
    this.random = deps.random ?? Math.random;
  }

  /** Starts creating deliveries for events and sends what the store holds as pending. */
  start(): void {
    const { journal, registry, deliveries } = this.deps;
    this.unsubscribers.push(
      journal.onAppend((entry) => this.createDeliveries(entry)),
      journal.subscribe((entry) => this.dispatchCreated(entry)),
      registry.onChange((id, change) => this.onWebhookChange(id, change)),
    );
    if (!this.deps.apiEnabled()) {
      deliveries.failPending(undefined, 'HTTP API is disabled', []);
      return;
    }
    const known = registry.list().map((hook) => hook.id);
    deliveries.failOrphaned(known, 'webhook removed');
    for (const id of known) this.pump(this.lane(id));
  }

  /**
   * Stops sending. Attempts in flight get up to `graceMs` to finish; those still running then are
   * abandoned (their deliveries stay pending with the attempts recorded so far and are sent
   * again at the next start). Deliveries keep being created for events until the store closes,
   * so events of the shutdown itself are sent at the next start.
   */
  async stop(graceMs = 3000): Promise<void> {
    this.stopping = true;
    for (const lane of this.lanes.values()) lane.wake?.cancel();
    if (this.busy()) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, graceMs);
        timer.unref();
        this.idle = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    this.stopped = true;
    // The first unsubscriber is the journal writer, which stays.
    for (const unsubscribe of this.unsubscribers.splice(1)) unsubscribe();
    await this.deps.sender.close();
  }

  /** Sends a `webhook.ping` to one webhook (journaled like any event). */
  ping(webhookId: string): void {
    this.pingTarget = webhookId;
    try {
      this.deps.journal.append('webhook.ping', { webhookId }, this.deps.clock.now());
    } finally {
      this.pingTarget = undefined;
    }
  }

  /** Sends a delivery again now (the store already made it pending with a new round). */
  redeliver(webhookId: string, deliveryId: string): void {
    const lane = this.lane(webhookId);
    if (lane.inFlight.has(deliveryId)) lane.again.add(deliveryId);
    lane.complete = false;
    this.pump(lane);
    this.deps.activity.notify([webhookId]);
  }

  /** Whether an attempt of this delivery is on the wire. */
  sending(webhookId: string, deliveryId: string): boolean {
    return this.lanes.get(webhookId)?.sending.has(deliveryId) ?? false;
  }

  /** Ends every pending delivery (the HTTP API was switched off). */
  dropAll(reason: string): void {
    const busy: string[] = [];
    for (const lane of this.lanes.values()) busy.push(...lane.sending);
    this.deps.deliveries.failPending(undefined, reason, busy);
    const ids = [...this.lanes.keys()];
    for (const lane of [...this.lanes.values()]) this.closeLane(lane);
    this.deps.activity.notify(ids);
  }

  // ---- creating deliveries ----

  /** Inside the journal append's transaction. */
  private createDeliveries(entry: JournalEntry): void {
    if (!this.deps.apiEnabled()) return;
    const targets = this.targets(entry.name);
    if (targets.length === 0) return;
    const now = this.deps.clock.now();
    const deliveries = targets.map((hook) => this.deps.deliveries.create(hook.id, entry, now));
    while ((this.created.at(-1)?.seq ?? 0) >= entry.seq) this.created.pop();
    this.created.push({ seq: entry.seq, deliveries });
  }

  private targets(event: JournalEventName): Webhook[] {
    if (event !== 'webhook.ping') return this.deps.registry.subscribers(event);
    const hook = this.pingTarget === undefined ? undefined : this.deps.registry.find(this.pingTarget);
    return hook?.active ? [hook] : [];
  }

  /** After the commit: the new deliveries join their lanes. */
  private dispatchCreated(entry: JournalEntry): void {
    let first = this.created[0];
    for (; first && first.seq < entry.seq; first = this.created[0]) this.created.shift();
    if (first?.seq !== entry.seq) return;
    this.created.shift();
    const created = first.deliveries;
    this.deps.activity.notify(created.map((delivery) => delivery.webhookId));
    if (this.stopping) return;
    for (const delivery of created) {
      const lane = this.lane(delivery.webhookId);
      if (lane.complete && delivery.seq > lane.seenUpTo && lane.ready.length < WINDOW) {
        lane.ready.push(delivery);
        lane.seenUpTo = delivery.seq;
      } else if (delivery.seq > lane.seenUpTo) {
        lane.complete = false;
      }
      this.pump(lane);
    }
  }

  // ---- lanes ----

  private lane(webhookId: string): Lane {
    let lane = this.lanes.get(webhookId);
    if (!lane) {
      lane = {
        webhookId,
        inFlight: new Set(),
        sending: new Set(),
        ready: [],
        complete: false,
        seenUpTo: 0,
        again: new Set(),
        wakeAt: Infinity,
      };
      this.lanes.set(webhookId, lane);
    }
    return lane;
  }

  /** Starts attempts while the lane has room and due deliveries. */
  private pump(lane: Lane): void {
    while (!this.stopping && lane.sending.size < this.maxInFlight) {
      if (lane.ready.length === 0 && !lane.complete) this.refill(lane);
      const delivery = lane.ready.shift();
      if (!delivery) return;
      this.attempt(lane, delivery);
    }
  }

  /** Reads the next window of due deliveries from the store. */
  private refill(lane: Lane): void {
    const hook = this.deps.registry.find(lane.webhookId);
    if (!hook?.active) {
      const reason = hook ? 'webhook inactive' : 'webhook removed';
      this.deps.deliveries.failPending(lane.webhookId, reason, [...lane.sending]);
      lane.complete = true;
      return;
    }
    const now = this.deps.clock.now();
    const want = WINDOW + lane.inFlight.size;
    lane.seenUpTo = this.deps.deliveries.lastSeq();
    const rows = this.deps.deliveries.due(lane.webhookId, now, want);
    lane.ready = rows.filter((row) => !lane.inFlight.has(row.id));
    lane.complete = rows.length < want;
    if (lane.complete) {
      const next = this.deps.deliveries.nextDueAfter(lane.webhookId, now);
      if (next !== undefined) this.wakeAt(lane, next);
    }
  }

  /** Makes the lane look at the store again at `at` (an earlier wake stays). */
  private wakeAt(lane: Lane, at: number): void {
    if (this.stopping || at >= lane.wakeAt) return;
    lane.wake?.cancel();
    lane.wakeAt = at;
    lane.wake = this.deps.clock.setTimer(Math.max(0, at - this.deps.clock.now()), () => {
      lane.wake = undefined;
      lane.wakeAt = Infinity;
      lane.complete = false;
      this.pump(lane);
    });
  }

  /** Abandons a lane's work: attempts in flight are aborted, nothing more is read. */
  private closeLane(lane: Lane): void {
    lane.wake?.cancel();
    this.lanes.delete(lane.webhookId);
    this.deps.sender.reset(lane.webhookId);
  }

  private onWebhookChange(id: string, change: WebhookChange): void {
    if (change === 'removed' || change === 'replaced' || change === 'disabled') {
      const reason = change === 'disabled' ? 'webhook disabled' : `webhook ${change}`;
      const lane = this.lanes.get(id);
      this.deps.deliveries.failPending(id, reason, lane ? [...lane.sending] : []);
      if (lane) this.closeLane(lane);
    }
    // Any change shows on the webhook's card (counters, active), deliveries or not.
    this.deps.activity.notify([id]);
  }

  // ---- attempts ----

  private attempt(lane: Lane, delivery: DueDelivery): void {
    const hook = this.deps.registry.find(delivery.webhookId);
    if (!hook?.active) return;
    lane.inFlight.add(delivery.id);
    lane.sending.add(delivery.id);
    const generation = this.deps.registry.generation(hook.id);
    const original = delivery.body ?? delivery.envelope ?? 'null';
    const transform =
      hook.transformFile !== undefined &&
      delivery.attempts === 0 &&
      delivery.body === null &&
      delivery.transformError === null
        ? this.transform(hook.transformFile, delivery.event, original)
        : undefined;
    const send = (body: string, made?: { body?: string; transformError?: string }): void => {
      const at = this.deps.clock.now();
      const started = performance.now();
      const current = this.deps.registry.find(hook.id) ?? hook;
      const headers: Record<string, string> = { 'Content-Type': 'application/json' };
      if (current.corsHeaders) {
        const previousSecret = this.deps.registry.previousSecret(current, at);
        Object.assign(
          headers,
          signatureHeaders({
            scheme: current.signing,
            secret: current.secret,
            ...(previousSecret ? { previousSecret } : {}),
            deliveryId: delivery.id,
            event: delivery.event,
            body,
            now: at,
          }),
        );
      }
      this.deps.sender.post(hook.id, current.url, headers, body).then(
        (result) => this.settle(lane, delivery, generation, at, performance.now() - started, result, made),
        (err: unknown) =>
          this.settle(
            lane,
            delivery,
            generation,
            at,
            performance.now() - started,
            (err as Error).message,
            made,
          ),
      );
    };
    if (transform) {
      transform.then(
        (made) => (this.stopped ? undefined : send(made.body ?? original, made)),
        (err: unknown) => {
          this.deps.log.error({ err, webhookId: hook.id }, 'webhook transform failed unexpectedly');
          send(original);
        },
      );
    } else {
      send(original);
    }
  }

  private async transform(
    file: string,
    event: JournalEventName,
    original: string,
  ): Promise<{ body?: string; transformError?: string }> {
    const result = await applyTransform(
      this.deps.reader,
      file,
      event,
      JSON.parse(original) as Record<string, unknown>,
    );
    if (result.error !== undefined) {
      this.deps.log.warn({ file, reason: result.error }, 'webhook transform fell back');
      return { transformError: result.error };
    }
    return { body: JSON.stringify(result.payload) };
  }

  /** Decides what an attempt's result means for its delivery and queues the write. */
  private settle(
    lane: Lane,
    delivery: DueDelivery,
    generation: number,
    at: number,
    durationMs: number,
    result: AttemptResult | string,
    made: { body?: string; transformError?: string } | undefined,
  ): void {
    lane.sending.delete(delivery.id);
    if (this.stopped) return;
    const number = delivery.attempts + 1;
    const attempt: Attempt = {
      attempt: number,
      at: new Date(at).toISOString(),
      durationMs: Math.round(durationMs * 10) / 10,
      outcome: 'failed',
    };
    let error: string;
    if (typeof result === 'string') {
      error = result;
    } else {
      attempt.responseStatus = result.status;
      if (result.responseBody) attempt.responseBody = result.responseBody;
      error = `HTTP ${result.status}`;
    }
    const outcome: Outcome = { delivery, attempt, status: 'failed', error, ...made };
    const hook = this.deps.registry.find(delivery.webhookId);
    const sameVersion = hook !== undefined && this.deps.registry.generation(hook.id) === generation;
    const delta = sameVersion ? this.delta(hook.id) : undefined;
    const ok = typeof result !== 'string' && result.status >= 200 && result.status <= 299;
    if (!ok) attempt.error = error;
    if (ok) {
      attempt.outcome = 'success';
      Object.assign(outcome, { status: 'success', error: null });
      if (delta) {
        delta.success++;
        delta.lastTriggered = at;
      }
    } else if (!hook || !delta || !hook.active || delta.disable || !this.deps.apiEnabled()) {
      const reason = !sameVersion
        ? 'webhook removed'
        : this.deps.apiEnabled()
          ? 'webhook inactive'
          : 'HTTP API is disabled';
      outcome.error = `${error} (not retried: ${reason})`;
    } else if (typeof result !== 'string' && result.status === 410) {
      outcome.error = `${error} (Gone: the receiver asked to stop; webhook disabled)`;
      delta.failure++;
      delta.disable = true;
      this.deps.log.warn({ webhookId: hook.id }, 'webhook disabled: the receiver answered 410 Gone');
    } else if (number - delivery.roundStart <= hook.retrySchedule.length) {
      outcome.status = 'pending';
      outcome.nextAttemptAt = this.deps.clock.now() + this.retryDelay(hook, number - delivery.roundStart);
      this.wakeAt(lane, outcome.nextAttemptAt);
    } else {
      delta.failure++;
      if (hook.failureCount + delta.failure > AUTO_DISABLE_THRESHOLD) {
        delta.disable = true;
        this.deps.log.warn(
          { webhookId: hook.id, failureCount: hook.failureCount + delta.failure },
          'webhook disabled after too many failed deliveries',
        );
      }
    }
    try {
      this.deps.store.writeSoon(() => this.deps.deliveries.record(outcome));
    } catch (err) {
      // Not recorded: the delivery stays pending as it was and is tried again a little later.
      this.deps.log.error({ err, webhookId: delivery.webhookId }, 'recording a webhook attempt failed');
      lane.inFlight.delete(delivery.id);
      lane.complete = true;
      this.wakeAt(lane, this.deps.clock.now() + STORE_ERROR_PAUSE_MS);
      return;
    }
    if (this.batch.push({ lane, outcome }) === 1) {
      this.deps.store.beforeCommit(() => {
        for (const [id, delta] of this.deltas) this.deps.registry.counterUpdate(id, delta);
      });
      this.deps.store.afterCommit((error) => this.committed(error));
    }
    // The slot is free now; the delivery itself stays out of reads until its outcome is committed.
    if (this.lanes.get(lane.webhookId) === lane) this.pump(lane);
  }

  /** The wait before attempt `n + 1` of a round (n counts from 1). */
  private retryDelay(hook: Webhook, n: number): number {
    const ms = (hook.retrySchedule[n - 1] as number) * 1000;
    return ms >= JITTER_FROM_MS ? Math.round(ms * (1 - JITTER + 2 * JITTER * this.random())) : ms;
  }

  private delta(webhookId: string): CounterDelta {
    let delta = this.deltas.get(webhookId);
    if (!delta) this.deltas.set(webhookId, (delta = { success: 0, failure: 0, disable: false }));
    return delta;
  }

  /** Once the outcomes of this turn are committed: counters mirrored, lanes moved on. */
  private committed(error: Error | undefined): void {
    const batch = this.batch;
    const deltas = this.deltas;
    this.batch = [];
    this.deltas = new Map();
    const now = this.deps.clock.now();
    for (const { lane, outcome } of batch) {
      lane.inFlight.delete(outcome.delivery.id);
      if (error) {
        // Lost with the failed commit: the deliveries are as they were; try again a little later.
        lane.complete = true;
        this.wakeAt(lane, now + STORE_ERROR_PAUSE_MS);
      } else if (
        lane.again.delete(outcome.delivery.id) ||
        (outcome.nextAttemptAt !== undefined && outcome.nextAttemptAt <= now)
      ) {
        // Sent again, or its wake came, while the outcome was not yet committed: a read skipped it.
        lane.complete = false;
      }
    }
    if (error) return;
    this.deps.activity.notify(batch.map((entry) => entry.lane.webhookId));
    // May disable webhooks, which closes their lanes.
    for (const [id, delta] of deltas) this.deps.registry.applyCounters(id, delta);
    const lanes = new Set(batch.map((entry) => entry.lane));
    for (const lane of lanes) if (this.lanes.get(lane.webhookId) === lane) this.pump(lane);
    if (this.idle && !this.busy()) this.idle();
  }

  private busy(): boolean {
    if (this.batch.length > 0) return true;
    for (const lane of this.lanes.values()) if (lane.sending.size > 0) return true;
    return false;
  }
}
