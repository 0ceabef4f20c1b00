/**
 * Server settings persisted in `<data dir>/settings.json` (mode 0600: it holds the API token and
 * OAuth credentials). The API and the settings page both change settings through this store.
 * Webhooks live in the store (`taskdown.sqlite`); those of earlier releases are read from here
 * once and moved there.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { IcsSubscriptionSchema, ProviderConfigSchema } from '../calendars/types.js';
import { DomainError } from '../errors.js';
import type { Logger } from '../logger.js';
import { JsonStateFile } from './json-file.js';

/** A webhook as earlier releases stored it here; moved into the store at start (docs/store.md). */
const LegacyWebhookSchema = Type.Object({
  id: Type.String(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  secret: Type.String(),
  active: Type.Boolean(),
  transformFile: Type.Optional(Type.String()),
  corsHeaders: Type.Boolean(),
  failureCount: Type.Integer({ minimum: 0 }),
  successCount: Type.Integer({ minimum: 0 }),
  createdAt: Type.String(),
  lastTriggered: Type.Optional(Type.String()),
});

export const SettingsSchema = Type.Object({
  version: Type.Literal(1, { default: 1 }),
  /** The host application's "Settings → Integrations → HTTP API" switch. */
  apiEnabled: Type.Boolean({ default: true }),
  /** Bearer token set from the settings page; a --token flag or env var takes precedence. */
  apiToken: Type.Union([Type.String({ minLength: 1 }), Type.Null()], { default: null }),
  webhooks: Type.Optional(Type.Array(LegacyWebhookSchema)),
  icsSubscriptions: Type.Array(IcsSubscriptionSchema, { default: [] }),
  calendarProviders: Type.Object(
    {
      google: Type.Optional(ProviderConfigSchema),
      microsoft: Type.Optional(ProviderConfigSchema),
    },
    { default: {} },
  ),
});
export type Settings = Static<typeof SettingsSchema>;

export type SettingsListener = (next: Settings, previous: Settings) => void;

export class SettingsStore {
  private current: Settings;
  private readonly listeners = new Set<SettingsListener>();
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly file: JsonStateFile<typeof SettingsSchema>,
    initial: Settings,
  ) {
    this.current = initial;
  }

  static async open(dataDir: string): Promise<SettingsStore> {
    const file = new JsonStateFile(path.join(dataDir, 'settings.json'), SettingsSchema, { mode: 0o600 });
    const initial = await file.load(() => Value.Create(SettingsSchema));
    return new SettingsStore(file, initial);
  }

  get(): Readonly<Settings> {
    return this.current;
  }

  /**
   * Applies `mutate` to a copy and persists it; the in-memory value changes only after the file
   * is written, so a failed write changes nothing. Updates run one at a time.
   */
  update<T = void>(mutate: (draft: Settings) => T): Promise<T> {
    const run = async (): Promise<T> => {
      const previous = this.current;
      const draft = structuredClone(previous);
      const result = mutate(draft);
      try {
        await this.file.save(draft);
      } catch (err) {
        // The data dir cannot be written (read-only, full, its permissions changed): a 503 that
        // says so, not a 500.
        const code = (err as NodeJS.ErrnoException).code;
        if (!code) throw err;
        throw new DomainError(
          'UNAVAILABLE',
          `The settings could not be saved (${code}: the data dir cannot be written); nothing was changed`,
        );
      }
      this.current = draft;
      for (const listener of this.listeners) listener(draft, previous);
      return result;
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => {});
    return next;
  }

  onChange(listener: SettingsListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async flush(): Promise<void> {
    await this.queue;
    await this.file.flush();
  }

  /**
   * Writes the settings again when their file is gone while they are not the defaults (the file,
   * or the whole data dir, removed while Taskdown runs): the next start would otherwise begin
   * with the defaults, without the API token or the calendars set on the settings page. True
   * when it wrote them.
   */
  restoreIfGone(): Promise<boolean> {
    const run = async (): Promise<boolean> => {
      if (Value.Equal(this.current, Value.Create(SettingsSchema))) return false;
      try {
        await fs.stat(this.file.file);
        return false;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return false;
      }
      // The data dir too may be gone; it is private, as at the first start.
      await fs.mkdir(path.dirname(this.file.file), { recursive: true, mode: 0o700 });
      await this.file.save(this.current);
      return true;
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => {});
    return next;
  }

  /** Calls restoreIfGone every second until the returned function is called. */
  keepFile(log: Logger): () => void {
    const timer = setInterval(() => {
      this.restoreIfGone().then(
        (wrote) =>
          wrote &&
          log.warn(
            { file: this.file.file },
            'the settings file was removed while Taskdown ran; it was written again',
          ),
        (err: Error) =>
          log.error(
            { file: this.file.file, error: err.message },
            'the settings file was removed and could not be written again',
          ),
      );
    }, KEEP_FILE_INTERVAL_MS);
    timer.unref();
    return () => clearInterval(timer);
  }
}

/** How often keepFile looks for the settings file. */
const KEEP_FILE_INTERVAL_MS = 1_000;
