/**
 * One JSON state file in the data dir. Loads with a schema check and saves atomically; saves are
 * serialized so the file always holds the latest complete state. A file that exists but cannot be
 * read or parsed or does not match the schema is a startup error naming the file: silently
 * replacing it with defaults would lose webhooks and their secrets.
 */
import { promises as fs } from 'node:fs';
import type { TSchema, Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { writeFileAtomic } from '../vault/atomic-write.js';

export class StateFileError extends Error {
  override readonly name = 'StateFileError';
  constructor(
    readonly file: string,
    readonly reason: string,
    /** What to do about it, when the cause is not the file's content. */
    advice = 'Fix or move the file, then start again.',
  ) {
    super(`State file ${file} is unusable: ${reason}. ${advice}`);
  }
}

export interface JsonFileOptions {
  /** 0o600 for files holding secrets. */
  mode?: number;
}

export class JsonStateFile<S extends TSchema> {
  private chain: Promise<void> = Promise.resolve();
  /** The save queued behind the one being written, if any (later saves merge into it). */
  private waiting: { value: Static<S>; done: Promise<void> } | undefined;

  constructor(
    readonly file: string,
    private readonly schema: S,
    private readonly options: JsonFileOptions = {},
  ) {}

  /** Reads the file; returns `fallback()` when it does not exist. */
  async load(fallback: () => Static<S>): Promise<Static<S>> {
    let text: string;
    try {
      text = await fs.readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return fallback();
      throw new StateFileError(this.file, (err as Error).message);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      throw new StateFileError(this.file, `invalid JSON (${(err as Error).message})`);
    }
    // Fill keys added by newer versions, then require the rest to match exactly.
    const withDefaults = Value.Default(this.schema, Value.Clone(parsed));
    if (!Value.Check(this.schema, withDefaults)) {
      const first = Value.Errors(this.schema, withDefaults).First();
      const where = first?.path || '/';
      throw new StateFileError(
        this.file,
        `${where}: ${first?.message ?? 'does not match the expected shape'}`,
      );
    }
    if (this.options.mode !== undefined) {
      // Tighten permissions of files that predate the mode rule.
      await fs.chmod(this.file, this.options.mode).catch(() => {});
    }
    return withDefaults as Static<S>;
  }

  /**
   * Persists `value` atomically. Saves are written one at a time, in call order; saves made while
   * one is waiting to start are merged into it (the latest value wins), so a burst of changes
   * costs one write, not one per change. Each promise resolves once a write holding that value,
   * or a newer one, is on disk.
   */
  save(value: Static<S>): Promise<void> {
    if (this.waiting) {
      this.waiting.value = value;
      return this.waiting.done;
    }
    const entry = { value } as { value: Static<S>; done: Promise<void> };
    entry.done = this.chain.then(() => {
      if (this.waiting === entry) this.waiting = undefined;
      const text = `${JSON.stringify(entry.value, null, 2)}\n`;
      return writeFileAtomic(this.file, text, { mode: this.options.mode ?? 0o644, mkdir: true });
    });
    this.waiting = entry;
    this.chain = entry.done.catch(() => {});
    return entry.done;
  }

  /** Resolves once every queued save has finished. */
  flush(): Promise<void> {
    return this.chain;
  }
}
