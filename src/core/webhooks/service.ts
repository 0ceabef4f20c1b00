/**
 * The webhook capability (docs/webhooks.md): the registry, the delivery store and engine on the
 * event journal, the sender on the shared HTTP client behind the address guard, and the vault
 * reader for transform templates. HTTP routes, the settings page (and MCP tools) call this one
 * service.
 */
import type { Clock } from '../clock.js';
import { conflict, invalid, notFound } from '../errors.js';
import type { Logger } from '../logger.js';
import type { HttpClient } from '../net/http-client.js';
import type { Store } from '../store/database.js';
import type { EventJournal, RetentionPolicy } from '../store/event-journal.js';
import type { SettingsStore } from '../state/settings.js';
import type { VaultPathPolicy } from '../vault/paths.js';
import { AddressGuard, type GuardPolicy, type Lookup } from '../net/address-guard.js';
import { DeliveryStore, type DeliveryFilter } from './delivery-store.js';
import { DeliveryActivity, type ActivityListener } from './activity.js';
import { MAX_IN_FLIGHT, WebhookEngine } from './engine.js';
import { requireUsable, WebhookRegistry } from './registry.js';
import { createSender } from './sender.js';
import type {
  DeliveryDetail,
  DeliveryRecord,
  PublicWebhook,
  Webhook,
  WebhookInput,
  WebhookPatch,
  WebhookWithSecret,
} from './types.js';
import { checkDeliveryFilter, DEFAULT_RETRY_SCHEDULE, WEBHOOK_MESSAGES } from './validation.js';
import { createVaultFileReader } from './vault-reader.js';

/** The delivery log's default page: the last 100, as the reference kept. */
export const DEFAULT_DELIVERY_PAGE = 100;

export interface WebhookServiceDeps {
  store: Store;
  journal: EventJournal;
  settings: SettingsStore;
  http: HttpClient;
  clock: Clock;
  log: Logger;
  paths: VaultPathPolicy;
  timeoutMs: number;
  guard: GuardPolicy;
  /** Tests: name resolution, concurrency and jitter. */
  lookup?: Lookup;
  maxInFlight?: number;
  random?: () => number;
}

export interface WebhookService {
  list(): PublicWebhook[];
  get(id: string): PublicWebhook;
  create(input: WebhookInput): Promise<WebhookWithSecret>;
  update(id: string, patch: WebhookPatch): Promise<PublicWebhook>;
  setActive(id: string, active: boolean): PublicWebhook;
  remove(id: string): void;
  rotateSecret(id: string, graceSeconds?: number): { secret: string; previousSecretExpiresAt: string };
  /** The delivery log, newest page first-to-last (oldest first), with `hasMore` for paging. */
  deliveries(filter?: Partial<DeliveryFilter>): { deliveries: DeliveryRecord[]; hasMore: boolean };
  delivery(id: string): DeliveryDetail;
  /** Sends a delivery again, same id and payload, with a new round of retries. */
  redeliver(id: string): DeliveryRecord;
  /** Sends a `webhook.ping` to the webhook, whatever events it subscribes to. */
  ping(id: string): DeliveryRecord;
  /** Removes old finished deliveries (store retention). */
  prune(policy: RetentionPolicy, now: number): void;
  /** The journal entries kept deliveries refer to. */
  referencedEventSeqs(): number[];
  /** Hears which webhooks' deliveries changed (the settings page's live log). */
  onActivity(listener: ActivityListener): () => void;
  /** Stops sending (in-flight attempts get a moment to finish). */
  stop(): Promise<void>;
}

export async function createWebhookService(deps: WebhookServiceDeps): Promise<WebhookService> {
  const { store, journal, settings, clock } = deps;
  const guard = new AddressGuard(deps.guard, deps.lookup);
  const registry = new WebhookRegistry({ store, clock, guard });
  await importLegacyWebhooks(settings, registry);
  const deliveries = new DeliveryStore(store);
  const apiEnabled = (): boolean => settings.get().apiEnabled;
  const activity = new DeliveryActivity();
  const engine = new WebhookEngine({
    store,
    activity,
    journal,
    registry,
    deliveries,
    sender: createSender({
      http: deps.http,
      guard,
      clock,
      timeoutMs: deps.timeoutMs,
      connections: deps.maxInFlight ?? MAX_IN_FLIGHT,
    }),
    reader: createVaultFileReader(deps.paths),
    clock,
    log: deps.log,
    apiEnabled,
    ...(deps.maxInFlight !== undefined ? { maxInFlight: deps.maxInFlight } : {}),
    ...(deps.random ? { random: deps.random } : {}),
  });
  engine.start();
  // Switching the API off ends the deliveries that are still waiting.
  const unsubscribe = settings.onChange((next, previous) => {
    if (previous.apiEnabled && !next.apiEnabled) engine.dropAll(WEBHOOK_MESSAGES.apiDisabled);
  });

  const requireSendable = (webhookId: string): Webhook => {
    if (!apiEnabled()) throw conflict(WEBHOOK_MESSAGES.apiDisabled);
    return requireUsable(registry, webhookId);
  };

  return {
    list: () => registry.list(),
    get: (id) => registry.get(id),
    create: (input) => registry.create(input),
    update: (id, patch) => registry.update(id, patch),
    setActive: (id, active) => registry.setActive(id, active),
    remove: (id) => registry.remove(id),
    rotateSecret: (id, graceSeconds) => registry.rotateSecret(id, graceSeconds),
    deliveries(filter = {}) {
      checkDeliveryFilter(filter);
      const page = deliveries.list({ ...filter, limit: filter.limit ?? DEFAULT_DELIVERY_PAGE });
      if (!page) throw invalid(`before: no delivery ${filter.before}`, { field: 'before' });
      return page;
    },
    delivery(id) {
      const found = deliveries.get(id);
      if (!found) throw notFound(WEBHOOK_MESSAGES.deliveryNotFound);
      return found;
    },
    redeliver(id) {
      const found = deliveries.get(id);
      if (!found) throw notFound(WEBHOOK_MESSAGES.deliveryNotFound);
      requireSendable(found.webhookId);
      if (!engine.sending(found.webhookId, id)) {
        deliveries.redeliver(id, clock.now());
        engine.redeliver(found.webhookId, id);
      }
      return withoutLog(deliveries.get(id) as DeliveryDetail);
    },
    ping(id) {
      requireSendable(id);
      engine.ping(id);
      return deliveries.latest(id) as DeliveryRecord;
    },
    prune: (policy, now) => void deliveries.prune(policy, now),
    referencedEventSeqs: () => deliveries.referencedEventSeqs(),
    onActivity: (listener) => activity.subscribe(listener),
    async stop() {
      unsubscribe();
      await engine.stop();
    },
  };
}

function withoutLog({ attemptLog: _log, ...record }: DeliveryDetail): DeliveryRecord {
  return record;
}

/**
 * Earlier releases kept webhooks in settings.json; they move into the store (secrets and
 * counters included) at the first start, then leave the settings file.
 */
async function importLegacyWebhooks(settings: SettingsStore, registry: WebhookRegistry): Promise<void> {
  const legacy = settings.get().webhooks;
  if (!legacy) return;
  registry.importLegacy(
    legacy.map((old) => ({
      id: old.id,
      url: old.url,
      events: old.events as Webhook['events'],
      secret: old.secret,
      active: old.active,
      ...(old.transformFile !== undefined ? { transformFile: old.transformFile } : {}),
      corsHeaders: old.corsHeaders,
      signing: 'taskdown',
      retrySchedule: [...DEFAULT_RETRY_SCHEDULE],
      failureCount: old.failureCount,
      successCount: old.successCount,
      createdAt: Date.parse(old.createdAt) || Date.now(),
      ...(old.lastTriggered ? { lastTriggered: Date.parse(old.lastTriggered) } : {}),
    })),
  );
  await settings.update((draft) => {
    delete draft.webhooks;
  });
}
