/**
 * The delivery engine (docs/api-decisions.md). It listens to every domain event and
 * knows nothing about where events come from, so all 14 events, from the API, the file watcher
 * or timers, are delivered by the same code.
 *
 * The bus listener only matches webhooks, freezes the payload (serialising it at event time, so
 * later mutation by the emitter cannot change what is sent) and queues the work: the operation
 * that emitted never waits for a receiver. Attempts then run with bounded concurrency; a failed
 * attempt is retried after 1 s, 2 s and 4 s on the injected Clock, at most 4 attempts in all.
 */
import type { Clock, TimerHandle } from '../clock.js';
import type { DomainEvent, EventBus } from '../events/bus.js';
import type { EventName } from '../events/catalogue.js';
import type { Logger } from '../logger.js';
import type { DeliveryLog, LiveDelivery } from './delivery-log.js';
import type { Sender, SendResult } from './http-sender.js';
import type { WebhookRef, WebhookRegistry } from './registry.js';
import { generateId, sign } from './signer.js';
import { applyTransform } from './transformer.js';
import type { EventEnvelope, WebhookConfig } from './types.js';
import type { VaultFileReader } from './vault-reader.js';

/** Waits before the 2nd, 3rd and 4th attempt. */
export const RETRY_DELAYS_MS = [1000, 2000, 4000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

export interface WebhookEngineDeps {
  registry: WebhookRegistry;
  deliveries: DeliveryLog;
  events: EventBus;
  sender: Sender;
  reader: VaultFileReader;
  clock: Clock;
  log: Logger;
  vault: { name: string; path: string };
  /** The HTTP API switch: no deliveries while it is off. */
  apiEnabled: () => boolean;
  /** Attempts in flight at once; further ones wait in a FIFO queue. */
  maxConcurrent?: number;
  /** Deliveries waiting for a slot beyond which new ones fail at once (memory bound). */
  maxQueued?: number;
}

type JobState = 'queued' | 'sending' | 'waiting' | 'done';

interface Job {
  record: LiveDelivery;
  ref: WebhookRef;
  state: JobState;
  retry?: TimerHandle;
}

export class WebhookEngine {
  private readonly maxConcurrent: number;
  private readonly maxQueued: number;
  /** Unfinished jobs per webhook id, to drop them when the webhook goes away or is disabled. */
  private readonly jobs = new Map<string, Set<Job>>();
  private queue: Array<Job | undefined> = [];
  private head = 0;
  private sending = 0;
  private stopped = false;
  private readonly unsubscribers: Array<() => void> = [];

  constructor(private readonly deps: WebhookEngineDeps) {
    this.maxConcurrent = deps.maxConcurrent ?? 64;
    this.maxQueued = deps.maxQueued ?? 10_000;
  }

  start(): void {
    this.unsubscribers.push(
      this.deps.events.onAny((event) => this.onEvent(event)),
      this.deps.registry.onChange(() => this.revalidate()),
    );
  }

  /**
   * Re-checks every delivery that waits for a slot or a retry: those whose webhook was removed,
   * replaced or disabled, or all of them once the API is switched off, end as `failed`.
   */
  revalidate(): void {
    for (const set of this.jobs.values()) {
      for (const job of set) {
        if (job.state === 'queued' || job.state === 'waiting') this.usable(job);
      }
    }
  }

  /** Stops listening, cancels retries and aborts attempts in flight. */
  stop(): void {
    this.stopped = true;
    for (const unsubscribe of this.unsubscribers.splice(0)) unsubscribe();
    for (const set of this.jobs.values()) for (const job of set) job.retry?.cancel();
    this.jobs.clear();
    this.queue = [];
    this.head = 0;
    this.deps.sender.destroy();
  }

  private onEvent(event: DomainEvent): void {
    if (this.stopped || !this.deps.apiEnabled()) return;
    const targets = this.deps.registry.subscribers(event.name);
    if (targets.length === 0) return;
    const envelope: EventEnvelope = {
      event: event.name,
      timestamp: new Date(event.at).toISOString(),
      vault: { name: this.deps.vault.name, path: this.deps.vault.path },
      data: event.data,
    };
    const text = JSON.stringify(envelope);
    for (const { ref, hook } of targets) {
      if (hook.transformFile) {
        this.transformed(ref, hook.transformFile, event.name, text).catch((err: unknown) =>
          this.deps.log.error({ err, webhookId: ref.id }, 'webhook transform failed unexpectedly'),
        );
      } else {
        this.enqueue(this.createJob(ref, event.name, text));
      }
    }
  }

  private async transformed(
    ref: WebhookRef,
    file: string,
    event: EventName,
    original: string,
  ): Promise<void> {
    const envelope = JSON.parse(original) as Record<string, unknown>;
    const result = await applyTransform(this.deps.reader, file, event, envelope);
    if (this.stopped) return;
    const body = result.error === undefined ? JSON.stringify(result.payload) : original;
    const job = this.createJob(ref, event, body);
    if (result.error !== undefined) {
      job.record.transformError = result.error;
      this.deps.log.warn({ webhookId: ref.id, file, reason: result.error }, 'webhook transform fell back');
    }
    this.enqueue(job);
  }

  private createJob(ref: WebhookRef, event: EventName, body: string): Job {
    const now = this.deps.clock.now();
    const record: LiveDelivery = {
      id: generateId('del', now),
      webhookId: ref.id,
      event,
      body,
      status: 'pending',
      attempts: 0,
      createdAt: new Date(now).toISOString(),
    };
    this.deps.deliveries.add(record);
    const job: Job = { record, ref, state: 'queued' };
    let set = this.jobs.get(ref.id);
    if (!set) this.jobs.set(ref.id, (set = new Set()));
    set.add(job);
    return job;
  }

  private enqueue(job: Job): void {
    if (this.queue.length - this.head >= this.maxQueued) {
      this.finish(job, 'failed', 'Delivery queue full');
      this.deps.log.warn({ webhookId: job.ref.id }, 'webhook delivery queue full; delivery dropped');
      return;
    }
    job.state = 'queued';
    this.queue.push(job);
    this.pump();
  }

  private pump(): void {
    while (this.sending < this.maxConcurrent && this.head < this.queue.length) {
      const job = this.queue[this.head] as Job;
      // Release the slot at once: a consumed job kept reachable here until the next compaction
      // outlives the young generation, and promoting thousands of them made GC the top cost.
      this.queue[this.head++] = undefined;
      if (job.state === 'queued') this.attempt(job);
    }
    if (this.head === this.queue.length) {
      this.queue.length = 0;
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
  }

  private attempt(job: Job): void {
    const hook = this.usable(job);
    if (!hook) return;
    const { record } = job;
    job.state = 'sending';
    this.sending++;
    record.attempts++;
    record.lastAttempt = new Date(this.deps.clock.now()).toISOString();
    let sending: Promise<SendResult>;
    try {
      sending = this.deps.sender.send(hook.url, this.headers(hook, record), record.body);
    } catch (err) {
      sending = Promise.reject(err); // e.g. a URL edited by hand into something unparsable
    }
    // Plain callbacks rather than an async function: this runs thousands of times a second.
    sending
      .then(
        (res) => {
          const ok = res.status >= 200 && res.status <= 299;
          this.settle(job, res.status, ok ? undefined : `HTTP ${res.status}: ${res.text}`.trim());
        },
        (err: unknown) => this.settle(job, undefined, (err as Error).message || String(err)),
      )
      .catch((err: unknown) =>
        this.deps.log.error({ err, webhookId: job.ref.id }, 'webhook delivery failed'),
      );
  }

  /** Records the outcome of an attempt and schedules the retry, if any. */
  private settle(job: Job, status: number | undefined, error: string | undefined): void {
    this.sending--;
    if (this.stopped) return;
    const { record } = job;
    if (status !== undefined) record.responseStatus = status;
    if (error === undefined) {
      delete record.error;
      this.finish(job, 'success');
      this.deps.registry.recordSuccess(job.ref, new Date(this.deps.clock.now()).toISOString());
    } else {
      record.error = error;
      const after = this.deps.registry.recordFailure(job.ref);
      if (!after?.active || record.attempts >= MAX_ATTEMPTS) {
        this.finish(job, 'failed');
        if (after && !after.active) this.dropAll(job.ref.id, 'webhook disabled');
      } else {
        job.state = 'waiting';
        job.retry = this.deps.clock.setTimer(RETRY_DELAYS_MS[record.attempts - 1] as number, () => {
          job.retry = undefined;
          if (job.state === 'waiting') this.enqueue(job);
        });
      }
    }
    this.pump();
  }

  /** The webhook to send to, or undefined after ending the job when it may no longer be sent. */
  private usable(job: Job): WebhookConfig | undefined {
    if (!this.deps.apiEnabled()) return this.drop(job, 'HTTP API is disabled');
    const found = this.deps.registry.lookup(job.ref);
    if (!found) return this.drop(job, 'webhook removed');
    if (!found.active) return this.drop(job, 'webhook inactive');
    return found.hook;
  }

  private dropAll(webhookId: string, reason: string): void {
    for (const job of [...(this.jobs.get(webhookId) ?? [])]) {
      if (job.state === 'queued' || job.state === 'waiting') this.drop(job, reason);
    }
  }

  private drop(job: Job, reason: string): undefined {
    const previous = job.record.error;
    this.finish(job, 'failed', previous ? `${previous} (not retried: ${reason})` : `Not sent: ${reason}`);
    return undefined;
  }

  private finish(job: Job, status: 'success' | 'failed', error?: string): void {
    job.retry?.cancel();
    job.retry = undefined;
    job.state = 'done';
    job.record.status = status;
    if (error !== undefined) job.record.error = error;
    const set = this.jobs.get(job.ref.id);
    set?.delete(job);
    if (set?.size === 0) this.jobs.delete(job.ref.id);
  }

  private headers(hook: WebhookConfig, record: LiveDelivery): Record<string, string> {
    if (!hook.corsHeaders) return { 'Content-Type': 'application/json' };
    return {
      'Content-Type': 'application/json',
      'X-Service-Event': record.event,
      'X-Service-Signature': sign(hook.secret, record.body),
      'X-Service-Delivery-ID': record.id,
    };
  }
}
