/**
 * Builds the webhook capability on a temp vault and data dir with a ManualClock and a real
 * loopback receiver, without the HTTP server: the engine is driven by emitting on the bus.
 */
import { EventBus } from '../../../src/core/events/bus.js';
import type { EventData, EventName } from '../../../src/core/events/catalogue.js';
import { silentLogger } from '../../../src/core/logger.js';
import { SettingsStore } from '../../../src/core/state/settings.js';
import type { Sender } from '../../../src/core/webhooks/http-sender.js';
import type { WebhookRegistry } from '../../../src/core/webhooks/registry.js';
import { createWebhookService, type WebhookService } from '../../../src/core/webhooks/service.js';
import { ManualClock } from '../../helpers/manual-clock.js';
import { startReceiver, type Receiver } from '../../helpers/receiver.js';
import { tempDir, writeFiles } from '../../helpers/temp.js';
import { waitFor } from '../../helpers/server-process.js';

export interface Harness {
  clock: ManualClock;
  events: EventBus;
  settings: SettingsStore;
  registry: WebhookRegistry;
  receiver: Receiver;
  vault: string;
  dataDir: string;
  service: WebhookService;
  emit<E extends EventName>(name: E, data: EventData<E>): void;
  /** Waits (real time) until the delivery log satisfies `check`. */
  until(check: (h: Harness) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function createHarness(
  options: { files?: Record<string, string>; sender?: Sender } = {},
): Promise<Harness> {
  const vaultDir = await tempDir('taskdown-wh-vault-');
  const dataDirT = await tempDir('taskdown-wh-data-');
  if (options.files) await writeFiles(vaultDir.dir, options.files);
  const clock = new ManualClock();
  const events = new EventBus(clock, silentLogger);
  const settings = await SettingsStore.open(dataDirT.dir);
  const service = createWebhookService({
    settings,
    events,
    clock,
    log: silentLogger,
    vault: { name: 'vault', path: vaultDir.dir },
    paths: { root: vaultDir.dir, dataDir: dataDirT.dir },
    timeoutMs: 15_000,
    sender: options.sender,
  });
  const receiver = await startReceiver();
  const harness: Harness = {
    clock,
    events,
    settings,
    registry: service.registry,
    receiver,
    vault: vaultDir.dir,
    dataDir: dataDirT.dir,
    service,
    emit: (name, data) => events.emit(name, data),
    async until(check, timeoutMs = 5000) {
      await waitFor(() => check(harness), timeoutMs, 5);
    },
    async close() {
      await service.stop();
      await settings.flush();
      await receiver.close();
      await vaultDir.cleanup();
      await dataDirT.cleanup();
    },
  };
  return harness;
}

export const task = (title = 'Buy milk', extra: Record<string, unknown> = {}) => ({
  id: `TaskNotes/Tasks/${title}.md`,
  path: `TaskNotes/Tasks/${title}.md`,
  title,
  status: 'open',
  priority: 'normal',
  archived: false,
  tags: ['task'],
  contexts: ['home'],
  projects: ['[[Groceries]]', '[[House]]'],
  totalTrackedTime: 0,
  isBlocked: false,
  isBlocking: false,
  ...extra,
});

/** Lets a moment of real time pass (for "nothing else arrives" checks). */
export const pause = (ms = 60): Promise<void> => new Promise((r) => setTimeout(r, ms));
