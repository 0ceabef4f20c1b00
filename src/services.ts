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
import type { Logger } from './core/logger.js';
import { SettingsStore } from './core/state/settings.js';

export interface Services {
  vaultInfo: { name: string; path: string };
  clock: Clock;
  events: EventBus;
  settings: SettingsStore;
}

export interface ServiceRuntime {
  services: Services;
  /** Stops timers and watchers and persists state, in reverse order of creation. */
  stop(): Promise<void>;
}

export interface CreateServicesOptions {
  config: ServerConfig;
  log: Logger;
  clock?: Clock;
}

export async function createServices({
  config,
  log,
  clock = systemClock,
}: CreateServicesOptions): Promise<ServiceRuntime> {
  const stops: Array<() => Promise<void>> = [];
  await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  const settings = await SettingsStore.open(config.dataDir);
  stops.push(() => settings.flush());
  const events = new EventBus(clock, log);

  const services: Services = {
    vaultInfo: { name: path.basename(config.vault), path: config.vault },
    clock,
    events,
    settings,
  };

  return {
    services,
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
