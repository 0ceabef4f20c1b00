/**
 * The composition root of the domain: creates every service on one vault and data dir and wires
 * them to the event bus. Adapters (HTTP, CLI, settings page) receive the finished `Services`.
 *
 * Each capability adds its service here: construct it, add it to `Services`, and register its
 * stop hook so shutdown persists its state.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { ServerConfig } from './config/config.js';
import { systemClock, type Clock } from './core/clock.js';
import { EventBus } from './core/events/bus.js';
import { openStore } from './core/store/database.js';
import { EventJournal } from './core/store/event-journal.js';
import { StoreMaintenance } from './core/store/maintenance.js';
import type { Logger } from './core/logger.js';
import { acquireDataDirLock } from './core/state/instance-lock.js';
import { SettingsStore } from './core/state/settings.js';
import { clearDataDirDebris } from './core/vault/crash-debris.js';
import type { NotePrefetch } from './core/vault/note-prefetch.js';
import { basesSettingsFrom } from './core/bases/bases-settings.js';
import { BasesService } from './core/bases/default-files.js';
import { CalendarService } from './core/calendars/calendar-service.js';
import { NlpService } from './core/nlp/nlp-service.js';
import { QueryService } from './core/query/query-service.js';
import { TaskService } from './core/tasks/task-service.js';
import { createRecurrence } from './core/recurrence/recurrence-module.js';
import type { RecurrenceService } from './core/recurrence/recurrence-service.js';
import { createHttpClient } from './core/net/http-client.js';
import { AddressGuard } from './core/net/address-guard.js';
import { createWebhookService, type WebhookService } from './core/webhooks/service.js';
import { createTracking } from './core/time/tracking-module.js';
import type { TimeService } from './core/time/time-service.js';
import type { PomodoroService } from './core/pomodoro/pomodoro-service.js';
import type { ReminderScheduler } from './core/reminders/reminder-scheduler.js';

export interface Services {
  vaultInfo: { name: string; path: string };
  clock: Clock;
  events: EventBus;
  /** Every event with its sequence number, persisted (docs/store.md): the event stream's replay. */
  journal: EventJournal;
  settings: SettingsStore;
  /** Task notes: index, reads, writes and task events (also for edits by other programs). */
  tasks: TaskService;
  /** FilterQuery runs, list filters, filter options and statistics over the task index. */
  queries: QueryService;
  /** Recurring instances: complete/skip/unskip, materialized occurrences, recurring.* events. */
  recurrence: RecurrenceService;
  /** Webhooks: registry, delivery log, redeliver, ping, rotation; delivery runs on the journal. */
  webhooks: WebhookService;
  /** Natural-language parsing and creation (configured from the vault's TaskNotes settings). */
  nlp: NlpService;
  /** ICS subscriptions, Google/Microsoft providers, merged events; subscription management. */
  calendars: CalendarService;
  /** Default `.base` view files generated from the current settings. */
  bases: BasesService;
  /** Time tracking on tasks (time.* events). */
  time: TimeService;
  /** Pomodoro state machine and timer, state in the data dir (pomodoro.* events). */
  pomodoro: PomodoroService;
  /** Fires reminder.triggered when task reminders become due. */
  reminders: ReminderScheduler;
}

export interface ServiceRuntime {
  services: Services;
  /** Records the URL the server listens on in the data dir's lock. */
  listening(url: string): Promise<void>;
  /**
   * Gives up the work under way that waits on other servers or on a thread (calendar feeds being
   * fetched or read, calendar provider requests), so that the requests waiting on it answer at
   * once: the first step of a stop, before the requests in flight are let finish.
   */
  interrupt(): void;
  /** Stops timers and watchers and persists state, in reverse order of creation; frees the data dir. */
  stop(): Promise<void>;
}

export interface CreateServicesOptions {
  config: ServerConfig;
  log: Logger;
  clock?: Clock;
  /** The port the HTTP server listens on, once it does (webhooks may never target it). */
  listenPort?: () => number | undefined;
  /** The command running the services, named by the data dir's lock (default `serve`). */
  command?: string;
  /** A start's walk of the vault; for a large vault, its notes already being read or looked up on a second thread (see TaskService). */
  prefetch?: NotePrefetch;
}

/**
 * Takes the data dir (one Taskdown per data dir: DataDirLockedError when another one runs on it),
 * clears what a crash left there, and creates the services on it.
 */
export async function createServices(options: CreateServicesOptions): Promise<ServiceRuntime> {
  const { config, log } = options;
  await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  const lock = await acquireDataDirLock(config.dataDir, {
    command: options.command ?? 'serve',
    vault: config.vault,
    log,
  });
  let runtime;
  try {
    clearDataDirDebris(config.dataDir, log);
    runtime = await openServices(options);
  } catch (err) {
    await lock.release();
    throw err;
  }
  return {
    services: runtime.services,
    listening: (url) => lock.listening(url),
    interrupt: () => runtime.interrupt(),
    async stop() {
      await runtime.stop();
      await lock.release();
    },
  };
}

async function openServices({
  config,
  log,
  clock = systemClock,
  listenPort = () => (config.port === 0 ? undefined : config.port),
  prefetch,
}: CreateServicesOptions): Promise<Omit<ServiceRuntime, 'listening'>> {
  const stops: Array<() => Promise<void>> = [];
  const settings = await SettingsStore.open(config.dataDir);
  const stopKeeping = settings.keepFile(log);
  stops.push(async () => {
    stopKeeping();
    await settings.flush();
  });
  const vaultInfo = { name: path.basename(config.vault), path: config.vault };
  const store = openStore(config.dataDir, log);
  // Closed last: events emitted while the other services stop are still journaled.
  stops.push(() => store.close());
  const events = new EventBus(clock, log);
  const journal = new EventJournal(store, vaultInfo, log);
  journal.attach(events);
  // Calendar feeds and providers: a URL given on the settings page makes this server fetch what
  // only it can reach, and a feed's text comes back as events. Link-local (cloud metadata),
  // multicast, reserved addresses and this server itself are refused; a LAN or local calendar
  // server is allowed.
  const outbound = new AddressGuard({
    listenHost: config.host,
    listenPort,
    allowPrivate: true,
    rules: 'calendar feed',
  });
  const http = createHttpClient((host, port) => outbound.vet(host, port));
  stops.push(() => http.close());
  const webhooks = await createWebhookService({
    store,
    journal,
    settings,
    http,
    clock,
    log,
    paths: { root: config.vault, dataDir: config.dataDir },
    timeoutMs: config.webhookTimeoutMs,
    guard: { listenHost: config.host, listenPort, allowPrivate: config.webhookAllowPrivate },
  });
  stops.push(() => webhooks.stop());
  const maintenance = new StoreMaintenance({
    clock,
    log,
    journal,
    steps: [
      (now) => webhooks.prune(config.retention, now),
      (now) => journal.prune(config.retention, now, webhooks.referencedEventSeqs()),
    ],
  });
  stops.push(async () => maintenance.stop());
  const tasks = await TaskService.open({
    vault: config.vault,
    dataDir: config.dataDir,
    events,
    clock,
    log,
    validation: config.validation,
    recording: (work) => journal.recording(work),
    ...(prefetch ? { prefetch } : {}),
  });
  stops.push(() => tasks.stop());
  const recurrence = createRecurrence({ tasks, events, clock, log });
  stops.push(() => recurrence.stop());
  const tracking = await createTracking({ tasks, events, clock, log, dataDir: config.dataDir, store });
  stops.push(() => tracking.stop());
  const nlp = new NlpService(tasks, clock);
  const calendars = new CalendarService({
    settings,
    clock,
    log,
    vault: { root: config.vault, dataDir: config.dataDir },
    dataDir: config.dataDir,
    http,
  });
  await calendars.start();
  stops.push(() => calendars.stop());
  const bases = new BasesService({
    vault: { root: config.vault, dataDir: config.dataDir },
    log,
    settings: () => basesSettingsFrom(tasks.settings()),
  });

  const services: Services = {
    vaultInfo,
    clock,
    events,
    journal,
    settings,
    tasks,
    queries: new QueryService(tasks, clock),
    recurrence: recurrence.service,
    webhooks,
    time: tracking.time,
    pomodoro: tracking.pomodoro,
    reminders: tracking.reminders,
    nlp,
    calendars,
    bases,
  };
  // Last, once every subscriber is wired: catch-up events (overdue pomodoro, missed reminders).
  await tracking.activate();

  return {
    services,
    interrupt: () => calendars.interrupt(),
    async stop() {
      for (const stop of stops.reverse()) {
        try {
          await stop();
        } catch (err) {
          log.error({ err }, 'error while stopping a service');
        }
      }
    },
  };
}
