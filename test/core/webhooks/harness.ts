/**
 * Builds the webhook capability on a temp vault and data dir, with its real store, event
 * journal and HTTP client, a ManualClock and a real loopback receiver, without the HTTP server:
 * the engine is driven by emitting on the bus. `restart()` stops everything and opens the same
 * data dir again, as a server restart does.
 */
import { EventBus } from '../../../src/core/events/bus.js';
import type { EventData, EventName } from '../../../src/core/events/catalogue.js';
import { silentLogger } from '../../../src/core/logger.js';
import { createHttpClient, type HttpClient } from '../../../src/core/net/http-client.js';
import { SettingsStore } from '../../../src/core/state/settings.js';
import { openStore, type Store } from '../../../src/core/store/database.js';
import { EventJournal } from '../../../src/core/store/event-journal.js';
import type { GuardPolicy, Lookup } from '../../../src/core/net/address-guard.js';
import { createWebhookService, type WebhookService } from '../../../src/core/webhooks/service.js';
import type { DeliveryRecord } from '../../../src/core/webhooks/types.js';
import { ManualClock } from '../../helpers/manual-clock.js';
import { startReceiver, type Receiver } from '../../helpers/receiver.js';
import { waitFor } from '../../helpers/server-process.js';
import { tempDir, writeFiles } from '../../helpers/temp.js';

export interface HarnessOptions {
  files?: Record<string, string>;
  /** Clock start (default 2026-01-15T09:00Z); Standard Webhooks tests need the real time. */
  start?: number;
  timeoutMs?: number;
  maxInFlight?: number;
  random?: () => number;
  lookup?: Lookup;
  guard?: Partial<GuardPolicy>;
}

export interface Harness {
  clock: ManualClock;
  store: Store;
  events: EventBus;
  journal: EventJournal;
  settings: SettingsStore;
  service: WebhookService;
  receiver: Receiver;
  vault: string;
  dataDir: string;
  emit<E extends EventName>(name: E, data: EventData<E>): void;
  /** The delivery log, oldest first (the default page of 100). */
  deliveries(): DeliveryRecord[];
  /** Waits (real time) until `check` holds. */
  until(check: (h: Harness) => boolean, timeoutMs?: number): Promise<void>;
  /** Stops the service and closes the store, then opens the same data dir again. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export async function createHarness(options: HarnessOptions = {}): Promise<Harness> {
  const vaultDir = await tempDir('taskdown-wh-vault-');
  const dataDirT = await tempDir('taskdown-wh-data-');
  if (options.files) await writeFiles(vaultDir.dir, options.files);
  const clock = new ManualClock(options.start);
  const receiver = await startReceiver();

  let store: Store;
  let http: HttpClient;
  const open = async () => {
    store = openStore(dataDirT.dir);
    const events = new EventBus(clock, silentLogger);
    const journal = new EventJournal(store, { name: 'vault', path: vaultDir.dir }, silentLogger);
    journal.attach(events);
    const settings = await SettingsStore.open(dataDirT.dir);
    http = createHttpClient();
    const service = await createWebhookService({
      store,
      journal,
      settings,
      http,
      clock,
      log: silentLogger,
      paths: { root: vaultDir.dir, dataDir: dataDirT.dir },
      timeoutMs: options.timeoutMs ?? 15_000,
      guard: { listenHost: '127.0.0.1', listenPort: () => undefined, allowPrivate: false, ...options.guard },
      ...(options.lookup ? { lookup: options.lookup } : {}),
      ...(options.maxInFlight ? { maxInFlight: options.maxInFlight } : {}),
      ...(options.random ? { random: options.random } : {}),
    });
    return { store, events, journal, settings, service };
  };
  const shut = async (h: Harness) => {
    await h.service.stop();
    await h.settings.flush();
    await http.close();
    await store.close();
  };

  const harness: Harness = {
    clock,
    ...(await open()),
    receiver,
    vault: vaultDir.dir,
    dataDir: dataDirT.dir,
    emit: (name, data) => harness.events.emit(name, data),
    deliveries: () => harness.service.deliveries().deliveries,
    async until(check, timeoutMs = 5000) {
      await waitFor(() => check(harness), timeoutMs, 5);
    },
    async restart() {
      await shut(harness);
      Object.assign(harness, await open());
    },
    async close() {
      await shut(harness);
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
