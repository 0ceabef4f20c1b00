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
import { promises as fs, readFile, statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Logger } from '../logger.js';
import { writeFileAtomic } from './atomic-write.js';
import { IndexSnapshot, type SnapshotEntry } from './index-snapshot.js';
import { KeyedLock } from './keyed-lock.js';
import type { VaultPathPolicy } from './paths.js';
import { inspectVaultPath, refusedPath } from './vault-entry.js';
import {
  hashText,
  isCandidateNote,
  scanVault,
  type NoteParser,
  type ScannedNote,
  type VaultScan,
} from './vault-scan.js';
import { VaultWatcher } from './vault-watcher.js';

export type { NoteParser } from './vault-scan.js';

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
  /**
   * Called synchronously whenever a note's record is replaced by another for the same path (a
   * write or an external edit), before anything else can read the index: lets the owner drop
   * data derived from other records in the same step. Additions and removals are not reported
   * here; they change `pathsVersion`.
   */
  onReplace?: (before: NoteRecord<P>, after: NoteRecord<P>) => void;
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
  private stopped = false;
  /** Notes found empty once by the watcher, looked at again before an empty read counts. */
  private readonly emptySeen = new Set<string>();
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
    const scan = await this.rescan();
    this.startWatcher(scan.folders, scan.links);
  }

  /**
   * Re-reads and re-parses every note without reporting changes (e.g. after a settings change),
   * reusing the snapshot's entries of unchanged notes. Returns the folders walked and the notes
   * that are links.
   */
  async rescan(): Promise<{ folders: string[]; links: string[] }> {
    const previous = this.snapshot?.load(this.options.snapshot?.key() ?? '') ?? new Map();
    const scan = await scanVault(this.options.policy, this.options.parse, previous);
    this.adopt(scan);
    this.watcher?.watchLinks(scan.links);
    return scan;
  }

  /** Replaces the index with a scan's notes; logs its problems; schedules the snapshot. */
  private adopt(scan: VaultScan<P>): void {
    const candidates: ScannedNote<P>[] = [];
    this.notes.clear();
    for (const note of scan.notes) {
      const { rel, hash, parsed } = note;
      if (note.broken !== undefined) {
        this.warnBroken(rel, hash, note.broken);
        continue;
      }
      this.broken.delete(rel);
      // The scanned note is the index record (it has the record's fields and then some): one
      // object per note instead of two, on 10,000 notes less work for the GC at start.
      if (parsed !== null) this.notes.set(rel, note as NoteRecord<P>);
      candidates.push(note);
    }
    for (const { path: rel, reason } of scan.unreadable) this.options.log.warn({ path: rel, reason }, 'cannot read note');
    this.touch();
    this.scheduleSnapshot(this.options.snapshot?.key() ?? '', candidates, scan.startedAt);
  }

  /** Writes the snapshot a little later: 10,000 stats and entries are not for the startup path. */
  private scheduleSnapshot(key: string, candidates: ScannedNote<P>[], scannedAt: number): void {
    const snapshot = this.snapshot;
    if (!snapshot) return;
    clearTimeout(this.snapshotTimer);
    this.snapshotTimer = setTimeout(() => {
      this.snapshotTimer = undefined;
      this.snapshotEntries(candidates, scannedAt)
        .then((entries) => entries && snapshot.save(key, entries))
        .catch((err: unknown) => {
          this.options.log.warn({ err }, 'cannot write the index snapshot');
        });
    }, SNAPSHOT_DELAY_MS);
    this.snapshotTimer.unref();
  }

  /**
   * The scanned notes that may be reused by the next start, with the mtime and size to check
   * them by. A note qualifies while the index still holds what the scan read of it and its file
   * was last modified well before the scan began (so not during or after the read): same size in
   * bytes as the text read, mtime older than the scan by SNAPSHOT_SETTLED_MS (a note edited again
   * within the file system's timestamp granularity could otherwise keep its mtime and size with
   * new content). Anything else is simply read again next time. Undefined when the store stopped.
   */
  private async snapshotEntries(
    candidates: ScannedNote<P>[],
    scannedAt: number,
  ): Promise<Map<string, SnapshotEntry<P>> | undefined> {
    const settledBefore = scannedAt - SNAPSHOT_SETTLED_MS;
    const entries = new Map<string, SnapshotEntry<P>>();
    for (let i = 0; i < candidates.length; i += SNAPSHOT_STAT_CHUNK) {
      if (i > 0) await new Promise((resolve) => setImmediate(resolve));
      if (this.stopped) return undefined;
      for (const note of candidates.slice(i, i + SNAPSHOT_STAT_CHUNK)) {
        const { rel, size, hash, parsed } = note;
        const current = this.notes.get(rel);
        if (parsed === null ? current !== undefined : current !== note) continue; // changed since
        let { mtimeMs } = note;
        if (mtimeMs === undefined) {
          const stat = statSync(this.abs(rel), { throwIfNoEntry: false });
          if (!stat?.isFile() || stat.size !== size || stat.mtimeMs >= settledBefore) continue;
          mtimeMs = stat.mtimeMs;
        }
        entries.set(rel, { mtimeMs, size, hash, parsed });
      }
    }
    return entries;
  }

  /** Closes the watcher and waits for queued and running writes. */
  async stop(): Promise<void> {
    this.stopped = true;
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
   * Under the note's lock: writes the note atomically (through to its target when the note is a
   * file link) and updates the index. Returns the new record, or undefined when the written text
   * is not a task note. A path the link rule refuses is never written (CONFLICT).
   */
  async write(rel: string, text: string): Promise<NoteRecord<P> | undefined> {
    const entry = inspectVaultPath(this.options.policy, rel);
    if (entry.kind === 'refused') throw refusedPath('write', rel);
    if (entry.kind === 'folder') throw refusedPath('write', rel, 'it is a folder');
    await writeFileAtomic(entry.real, text, { mkdir: true });
    const record = isCandidateNote(this.options.policy, rel) ? this.parseRecord(rel, text) : undefined;
    const before = this.notes.get(rel);
    if (record) this.notes.set(rel, record);
    else this.notes.delete(rel);
    if (before && record) this.options.onReplace?.(before, record);
    this.touch((before !== undefined) !== (record !== undefined));
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

  /**
   * Under the note's lock: moves the note to `<vault>/.trash/` (a hidden, never-scanned folder).
   * A note that is a link moves as the link; its target stays.
   */
  async trash(rel: string): Promise<void> {
    const policy = this.options.policy;
    if (inspectVaultPath(policy, rel).kind !== 'file') throw refusedPath('delete', rel);
    const base = path.basename(rel, '.md');
    let target = `.trash/${base}.md`;
    for (let i = 2; await pathExists(this.abs(target)); i++) target = `.trash/${base} ${i}.md`;
    if (inspectVaultPath(policy, target).kind !== 'missing') throw refusedPath('delete', rel);
    await fs.mkdir(path.dirname(this.abs(target)), { recursive: true });
    await fs.rename(this.abs(rel), this.abs(target));
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

  /** The note's text, or undefined when the path holds no note the scan would index. */
  private async readText(rel: string): Promise<string | undefined> {
    const policy = this.options.policy;
    if (!isCandidateNote(policy, rel)) return undefined;
    try {
      const entry = inspectVaultPath(policy, rel);
      return entry.kind === 'file' ? await readFileText(entry.real, 'utf8') : undefined;
    } catch (err) {
      return this.unreadable(rel, err);
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
      this.warnBroken(rel, hash, err instanceof Error ? err.message : String(err));
      return undefined;
    }
  }

  /** Logs a broken note once per content. */
  private warnBroken(rel: string, hash: string, reason: string): void {
    if (this.broken.get(rel) === hash) return;
    this.broken.set(rel, hash);
    this.options.log.warn({ path: rel, reason }, 'skipping note with invalid frontmatter');
  }

  /**
   * Brings one index entry in line with the disk; reports the change when there is one. Returns
   * the text read (undefined when the file is gone).
   *
   * `fromWatcher`: a program that rewrites a note in place truncates it before writing the new
   * text, and a read can land in between. An empty file where a task note was is looked at again
   * EMPTY_NOTE_GRACE_MS later (or at the write's own event) before it counts, so a rewrite is not
   * reported as a deletion followed by a creation (nor rebuilds every derived index twice).
   */
  private async reconcile(rel: string, fromWatcher = false): Promise<string | undefined> {
    const before = this.notes.get(rel);
    const text = await this.readText(rel);
    if (fromWatcher && text === '' && before && !this.emptySeen.has(rel)) {
      this.emptySeen.add(rel);
      this.watcher?.recheck(rel, EMPTY_NOTE_GRACE_MS);
      return text;
    }
    this.emptySeen.delete(rel);
    const hash = text === undefined ? undefined : hashText(text);
    if (text !== undefined && before?.hash === hash) return text;
    const after = text === undefined ? undefined : this.parseRecord(rel, text, hash);
    if (!before && !after) return text;
    if (after) this.notes.set(rel, after);
    else this.notes.delete(rel);
    if (before && after) this.options.onReplace?.(before, after);
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

  private startWatcher(folders: readonly string[], links: readonly string[]): void {
    const watcher = new VaultWatcher({
      policy: this.options.policy,
      log: this.options.log,
      watchFiles: this.options.watchFiles ?? [],
      debounceMs: this.options.stabilityMs ?? 50,
      onNote: (rel) => {
        void this.lock.run(rel, () => this.reconcile(rel, true)).catch((err: unknown) => {
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
    watcher.watchLinks(links);
    this.watcher = watcher;
  }
}

/** A note modified this recently before a scan is read again next time rather than snapshotted. */
const SNAPSHOT_SETTLED_MS = 2_000;
/** Notes checked between two yields while the snapshot is prepared. */
const SNAPSHOT_STAT_CHUNK = 500;
/** How long a note found empty may stay so before it counts as emptied (see reconcile). */
const EMPTY_NOTE_GRACE_MS = 250;
/** Delay between a full scan and writing its snapshot (off the startup path). */
const SNAPSHOT_DELAY_MS = 2_000;

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
