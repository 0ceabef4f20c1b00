/**
 * Assembles the webhook capability: registry on the settings store, delivery log, engine on the
 * event bus, keep-alive sender, and the vault reader for transform templates.
 */
import type { Clock } from '../clock.js';
import type { EventBus } from '../events/bus.js';
import type { Logger } from '../logger.js';
import type { SettingsStore } from '../state/settings.js';
import type { VaultPathPolicy } from '../vault/paths.js';
import { DeliveryLog } from './delivery-log.js';
import { WebhookEngine } from './engine.js';
import { createHttpSender, type Sender } from './http-sender.js';
import { WebhookRegistry } from './registry.js';
import { createVaultFileReader } from './vault-reader.js';

export interface WebhookServiceDeps {
  settings: SettingsStore;
  events: EventBus;
  clock: Clock;
  log: Logger;
  vault: { name: string; path: string };
  paths: VaultPathPolicy;
  timeoutMs: number;
  /** Tests may replace the network sender. */
  sender?: Sender;
}

export interface WebhookService {
  registry: WebhookRegistry;
  /** Stops deliveries and persists the counters. */
  stop(): Promise<void>;
}

export function createWebhookService(deps: WebhookServiceDeps): WebhookService {
  const deliveries = new DeliveryLog();
  const registry = new WebhookRegistry({
    settings: deps.settings,
    clock: deps.clock,
    log: deps.log,
    deliveries,
  });
  const engine = new WebhookEngine({
    registry,
    deliveries,
    events: deps.events,
    sender: deps.sender ?? createHttpSender({ clock: deps.clock, timeoutMs: deps.timeoutMs }),
    reader: createVaultFileReader(deps.paths),
    clock: deps.clock,
    log: deps.log,
    vault: deps.vault,
    apiEnabled: () => deps.settings.get().apiEnabled,
  });
  engine.start();
  // Switching the API off ends the retries that are still waiting.
  const unsubscribe = deps.settings.onChange((next, previous) => {
    if (next.apiEnabled !== previous.apiEnabled) engine.revalidate();
  });
  return {
    registry,
    async stop() {
      unsubscribe();
      engine.stop();
      await registry.flush();
    },
  };
}
