/**
 * The vault as an in-memory index of task notes plus the only write path to them.
 *
 * - The index holds what the parser made of every task note plus a hash of its text (not the
 *   text: 10,000 notes' texts are memory the reads never need), keyed by vault-relative path.
 * - Writes are atomic and serialized per note (KeyedLock); after a write the index holds the
 *   written text's hash, so the watcher's echo of our own write compares equal and is not reported.
 * - A folder watcher (vault-watcher.ts) reconciles edits by other programs (create/change/rename/
 *   delete) and reports them as changes; a caller about to write a note first reconciles it
 *   (`readFresh`, which also returns the current text), so an external edit that the watcher has
 *   not delivered yet is never overwritten unseen.
 * - A note that cannot be parsed (broken YAML) is logged once and left out; it never crashes.
 */
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, promises as fs, readFile, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Logger } from '../logger.js';
import { writeFileAtomic } from './atomic-write.js';
import { IndexSnapshot, type SnapshotEntry } from './index-snapshot.js';
import { KeyedLock } from './keyed-lock.js';
import type { VaultPathPolicy } from './paths.js';
import { walkVault } from './vault-scan.js';
import { VaultWatcher } from './vault-watcher.js';

/** One indexed note. Records are immutable: a change replaces the record. */
export interface NoteRecord<P = unknown> {
  rel: string;
  /** Hash of the note's text: tells an echo of our own write from a real change. */
  hash: string;
  /** What the parser made of the text (for tasks: frontmatter and details). */
  parsed: P;
}

/** A record together with the note's current text, for a read-modify-write. */
export type FreshNote<P> = NoteRecord<P> & { text: string };

/** Parses a note's text: the parsed value for a task note, null for any other note; throws when broken. */
export type NoteParser<P> = (rel: string, text: string) => P | null;

export type NoteChange<P> =
  | { kind: 'added'; after: NoteRecord<P> }
  | { kind: 'changed'; before: NoteRecord<P>; after: NoteRecord<P> }
  | { kind: 'removed'; before: NoteRecord<P> };

export interface VaultStoreOptions<P> {
  policy: VaultPathPolicy;
  log: Logger;
  parse: NoteParser<P>;
  /** Vault-relative files outside the note index whose changes are reported (e.g. plugin settings). */
  watchFiles?: readonly string[];
  /** Milliseconds a changed path must be quiet before it is read; small, to stay well under 1 s. */
  stabilityMs?: number;
  /**
   * Persist the index in this file (in the data dir) after each full scan and reuse unchanged
   * entries on the next one. `key` names everything the parse result depends on besides the text
   * (e.g. settings); a snapshot written under another key is ignored. Parsed values must be JSON.
   */
  snapshot?: { file: string; key: () => string };
}

export class VaultStore<P> {
  private readonly notes = new Map<string, NoteRecord<P>>();
  /** Text hashes of notes last seen broken, so a broken note is warned about once per content. */
  private readonly broken = new Map<string, string>();
  private readonly lock = new KeyedLock();
  private readonly externalListeners = new Set<(change: NoteChange<P>) => void>();
  private readonly fileListeners = new Set<(rel: string) => void>();
  private watcher: VaultWatcher | undefined;
  private readonly snapshot: IndexSnapshot<P> | undefined;
  private snapshotTimer: NodeJS.Timeout | undefined;
  private sortedCache: NoteRecord<P>[] | undefined;
  private versionCounter = 0;
  private pathsVersionCounter = 0;

  constructor(private readonly options: VaultStoreOptions<P>) {
    this.snapshot = options.snapshot ? new IndexSnapshot<P>(options.snapshot.file) : undefined;
  }

  get root(): string {
    return this.options.policy.root;
  }

  /** Increases on every index change; lets callers cache derived data. */
  get version(): number {
    return this.versionCounter;
  }

  /** Increases when the set of indexed paths changes (not on content changes). */
  get pathsVersion(): number {
    return this.pathsVersionCounter;
  }

  get(rel: string): NoteRecord<P> | undefined {
    return this.notes.get(rel);
  }

  /** Every indexed note, sorted by path. */
  all(): readonly NoteRecord<P>[] {
    this.sortedCache ??= [...this.notes.values()].sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
    return this.sortedCache;
  }

  /** Reports notes changed by other programs (after the index was updated). */
  onExternalChange(listener: (change: NoteChange<P>) => void): () => void {
    this.externalListeners.add(listener);
    return () => this.externalListeners.delete(listener);
  }

  /** Reports changes of the extra watched files (`watchFiles`). */
  onWatchedFileChange(listener: (rel: string) => void): () => void {
    this.fileListeners.add(listener);
    return () => this.fileListeners.delete(listener);
  }

  /** Full scan into the index (no change reports), then starts the watcher. */
  async start(): Promise<void> {
    const folders = await this.rescan();
    this.startWatcher(folders);
  }

  /**
   * Re-reads and re-parses every note without reporting changes (e.g. after a settings change).
   * Returns the folders walked. Notes are read synchronously in chunks: with the files in the
   * page cache a synchronous read costs a few syscalls, an asynchronous one also a thread-pool
   * round trip and a promise (measured on the 10,000-note bench vault: 70-140 ms against
   * 240-340 ms, half the CPU). Yielding between chunks keeps a rescan while serving responsive.
   */
  async rescan(): Promise<string[]> {
    const { notes: rels, folders } = await walkVault(this.options.policy);
    const key = this.options.snapshot?.key() ?? '';
    const previous = this.snapshot?.load(key) ?? new Map<string, SnapshotEntry<P>>();
    // Only notes left alone for a while before this scan are snapshotted (see index-snapshot.ts).
    const settledBefore = Date.now() - SNAPSHOT_SETTLED_MS;
    const entries = new Map<string, SnapshotEntry<P>>();
    const next = new Map<string, NoteRecord<P>>();
    for (let i = 0; i < rels.length; i += SCAN_CHUNK) {
      if (i > 0) await new Promise((resolve) => setImmediate(resolve));
      for (const rel of rels.slice(i, i + SCAN_CHUNK)) {
        const known = previous.get(rel);
        if (known) {
          const stat = statSync(this.abs(rel), { throwIfNoEntry: false });
          if (stat?.isFile() && stat.mtimeMs === known.mtimeMs && stat.size === known.size) {
            if (known.parsed !== null) next.set(rel, { rel, hash: known.hash, parsed: known.parsed });
            entries.set(rel, known);
            continue;
          }
        }
        const file = this.readSync(rel);
        if (!file) continue;
        const hash = hashText(file.text);
        const record = this.parseRecord(rel, file.text, hash);
        if (record) next.set(rel, record);
        if (this.snapshot && !this.broken.has(rel) && file.mtimeMs < settledBefore) {
          entries.set(rel, { mtimeMs: file.mtimeMs, size: file.size, hash, parsed: record ? record.parsed : null });
        }
      }
    }
    this.notes.clear();
    for (const [rel, record] of next) this.notes.set(rel, record);
    this.touch();
    this.scheduleSnapshot(key, entries);
    return folders;
  }

  /** Writes the snapshot a little later: serialising 10,000 entries is not for the startup path. */
  private scheduleSnapshot(key: string, entries: Map<string, SnapshotEntry<P>>): void {
    const snapshot = this.snapshot;
    if (!snapshot) return;
    clearTimeout(this.snapshotTimer);
    this.snapshotTimer = setTimeout(() => {
      this.snapshotTimer = undefined;
      snapshot.save(key, entries).catch((err: unknown) => {
        this.options.log.warn({ err }, 'cannot write the index snapshot');
      });
    }, SNAPSHOT_DELAY_MS);
    this.snapshotTimer.unref();
  }

  /** Closes the watcher and waits for queued and running writes. */
  async stop(): Promise<void> {
    clearTimeout(this.snapshotTimer);
    this.watcher?.close();
    this.watcher = undefined;
    await this.lock.idle();
  }

  /** Runs `work` while holding the note's lock (all writes to one note go through here). */
  withLock<T>(rel: string, work: () => Promise<T>): Promise<T> {
    return this.lock.run(rel, work);
  }

  /**
   * Under the note's lock: re-reads the note from disk, reconciling (and reporting) an external
   * change the watcher has not delivered yet. Returns the current record and text, if the note
   * is a task.
   */
  async readFresh(rel: string): Promise<FreshNote<P> | undefined> {
    const text = await this.reconcile(rel);
    const record = this.notes.get(rel);
    return record && text !== undefined ? { ...record, text } : undefined;
  }

  /** True when a file or folder exists at the vault-relative path (or the index has it). */
  async exists(rel: string): Promise<boolean> {
    if (this.notes.has(rel)) return true;
    try {
      await fs.lstat(this.abs(rel));
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Under the note's lock: writes the note atomically and updates the index. Returns the new
   * record, or undefined when the written text is not a task note.
   */
  async write(rel: string, text: string): Promise<NoteRecord<P> | undefined> {
    await writeFileAtomic(this.abs(rel), text, { mkdir: true });
    const record = this.parseRecord(rel, text);
    const had = this.notes.has(rel);
    if (record) this.notes.set(rel, record);
    else this.notes.delete(rel);
    this.touch(had !== (record !== undefined));
    return record;
  }

  /**
   * Under the old note's lock: writes `text` to a new, unused path and removes the old file
   * (a rename that also changes content). Returns the new record as `write` does.
   */
  async move(oldRel: string, newRel: string, text: string): Promise<NoteRecord<P> | undefined> {
    const record = await this.write(newRel, text);
    await fs.rm(this.abs(oldRel), { force: true });
    this.notes.delete(oldRel);
    this.touch();
    return record;
  }

  /** Under the note's lock: moves the note to `<vault>/.trash/` (a hidden, never-scanned folder). */
  async trash(rel: string): Promise<void> {
    const trashDir = path.join(this.root, '.trash');
    await fs.mkdir(trashDir, { recursive: true });
    const base = path.basename(rel, '.md');
    let target = path.join(trashDir, `${base}.md`);
    for (let i = 2; await pathExists(target); i++) target = path.join(trashDir, `${base} ${i}.md`);
    await fs.rename(this.abs(rel), target);
    this.notes.delete(rel);
    this.touch();
  }

  private abs(rel: string): string {
    return path.join(this.root, ...rel.split('/'));
  }

  private touch(pathsChanged = true): void {
    if (pathsChanged) this.pathsVersionCounter++;
    this.versionCounter++;
    this.sortedCache = undefined;
  }

  private async readText(rel: string): Promise<string | undefined> {
    try {
      return await readFileText(this.abs(rel), 'utf8');
    } catch (err) {
      return this.unreadable(rel, err);
    }
  }

  /** Text plus the mtime and size it was read at (fstat on the open file: no extra lookup). */
  private readSync(rel: string): { text: string; mtimeMs: number; size: number } | undefined {
    let fd: number | undefined;
    try {
      fd = openSync(this.abs(rel), 'r');
      const stat = fstatSync(fd);
      const text = readFileSync(fd, 'utf8');
      return { text, mtimeMs: stat.mtimeMs, size: stat.size };
    } catch (err) {
      return this.unreadable(rel, err);
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }

  /** A note that vanished (or became a folder) since it was listed is simply not there. */
  private unreadable(rel: string, err: unknown): undefined {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'EISDIR') this.options.log.warn({ err, path: rel }, 'cannot read note');
    return undefined;
  }

  private parseRecord(rel: string, text: string, hash = hashText(text)): NoteRecord<P> | undefined {
    try {
      const parsed = this.options.parse(rel, text);
      this.broken.delete(rel);
      return parsed === null ? undefined : { rel, hash, parsed };
    } catch (err) {
      if (this.broken.get(rel) !== hash) {
        this.broken.set(rel, hash);
        this.options.log.warn(
          { path: rel, reason: err instanceof Error ? err.message : String(err) },
          'skipping note with invalid frontmatter',
        );
      }
      return undefined;
    }
  }

  /**
   * Brings one index entry in line with the disk; reports the change when there is one. Returns
   * the text read (undefined when the file is gone).
   */
  private async reconcile(rel: string): Promise<string | undefined> {
    const before = this.notes.get(rel);
    const text = await this.readText(rel);
    const hash = text === undefined ? undefined : hashText(text);
    if (text !== undefined && before?.hash === hash) return text;
    const after = text === undefined ? undefined : this.parseRecord(rel, text, hash);
    if (!before && !after) return text;
    if (after) this.notes.set(rel, after);
    else this.notes.delete(rel);
    this.touch(!before || !after);
    const change: NoteChange<P> =
      before && after
        ? { kind: 'changed', before, after }
        : after
          ? { kind: 'added', after }
          : { kind: 'removed', before: before as NoteRecord<P> };
    for (const listener of this.externalListeners) {
      try {
        listener(change);
      } catch (err) {
        this.options.log.error({ err, path: rel }, 'vault change listener failed');
      }
    }
    return text;
  }

  private startWatcher(folders: readonly string[]): void {
    const watcher = new VaultWatcher({
      policy: this.options.policy,
      log: this.options.log,
      watchFiles: this.options.watchFiles ?? [],
      debounceMs: this.options.stabilityMs ?? 50,
      onNote: (rel) => {
        void this.lock.run(rel, () => this.reconcile(rel)).catch((err: unknown) => {
          this.options.log.error({ err, path: rel }, 'failed to reconcile a vault change');
        });
      },
      onFile: (rel) => {
        for (const listener of this.fileListeners) listener(rel);
      },
      notesUnder: (folder) => {
        const prefix = folder === '' ? '' : `${folder}/`;
        return [...this.notes.keys()].filter((rel) => rel.startsWith(prefix));
      },
    });
    watcher.start(folders);
    this.watcher = watcher;
  }
}

/** A note modified this recently before a scan is re-read next time rather than snapshotted. */
const SNAPSHOT_SETTLED_MS = 2_000;
/** Delay between a full scan and writing its snapshot (off the startup path). */
const SNAPSHOT_DELAY_MS = 2_000;

/** Notes read and parsed between two yields to the event loop during a scan (~10-20 ms of work). */
const SCAN_CHUNK = 500;

const hashText = (text: string): string => createHash('sha1').update(text).digest('base64');

// The callback readFile, promisified: about half the CPU of fs.promises.readFile (which takes
// separate open/fstat/read/close steps).
const readFileText = promisify(readFile);

async function pathExists(abs: string): Promise<boolean> {
  try {
    await fs.lstat(abs);
    return true;
  } catch {
    return false;
  }
}
