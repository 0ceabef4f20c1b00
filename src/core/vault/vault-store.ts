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
import { promises as fs, mkdirSync, renameSync, statSync, symlinkSync, type Stats } from 'node:fs';
import path from 'node:path';
import { conflict } from '../errors.js';
import type { Logger } from '../logger.js';
import { tempPathFor, writeFileAtomic } from './atomic-write.js';
import { checkedReplace } from './checked-replace.js';
import { warnIfNoSwap } from './rename-exchange.js';
import { clearVaultDebris } from './crash-debris.js';
import { IN_PLACE_MARGIN_MS } from './in-place-tail.js';
import { NoteChangedError } from './note-changed.js';
import { noteWriteFailure } from './note-write-error.js';
import { IndexSnapshot, stampOf, type SnapshotEntry } from './index-snapshot.js';
import { KeyedLock } from './keyed-lock.js';
import { isReservedVaultPath, type VaultPathPolicy } from './paths.js';
import {
  inspectVaultPath,
  inspectVaultPathForRead,
  RESERVED_FOLDER,
  refusedPath,
  type VaultEntry,
} from './vault-entry.js';
import { hashText, scanVault, type NoteParser, type ScannedNote, type VaultScan } from './vault-scan.js';
import type { NotePrefetch } from './note-prefetch.js';
import { isGoneError, NoteUnreadableError, readNote } from './note-read.js';
import { SortedNotes } from './sorted-notes.js';
import { VaultRoot } from './vault-root.js';
import { isCandidateNote, isIgnoredFolder, NOT_UTF8_NAME, walkVault } from './vault-walk.js';
import { VaultWatcher } from './vault-watcher.js';
import { whenQuiet, type QuietOptions } from './when-quiet.js';

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

/** A read examined against the index (see VaultStore.examine). */
interface Examined<P> {
  hash?: string;
  /** Same text as the record. */
  unchanged?: true;
  /** The new record when the text is an indexed note. */
  after?: NoteRecord<P>;
  /** Why the text could not be parsed. */
  broken?: string;
}

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
  /** How often the vault folder itself is looked at while serving (vault-root.ts; 1 s). */
  rootCheckMs?: number;
  /**
   * Persist the index in this file (in the data dir) after each full scan and reuse unchanged
   * entries on the next one. `key` names everything the parse result depends on besides the text
   * (e.g. settings); a snapshot written under another key is ignored. Parsed values must be JSON.
   */
  snapshot?: { file: string; key: () => string };
  /**
   * Called synchronously whenever one note's record changes — added (`before` undefined),
   * replaced, or removed (`after` undefined) by a write, a move, a deletion or another program —
   * before anything else can read the index: lets the owner keep data derived from the records
   * in step, change by change, instead of rebuilding it.
   */
  onChange?: (rel: string, before: NoteRecord<P> | undefined, after: NoteRecord<P> | undefined) => void;
  /** Called when a full scan replaced the whole index (start, settings change). */
  onReset?: () => void;
  /**
   * Runs the report of a change another program made (the external-change listeners) and throws
   * when the events it caused could not be recorded (the data dir's disk full): the index then
   * takes the change back and the watcher looks at the note again later, so the change is
   * reported once its events can be recorded, never lost (EventJournal.recording).
   */
  recording?: <T>(work: () => Promise<T>) => Promise<T>;
}

export class VaultStore<P> {
  private readonly notes = new Map<string, NoteRecord<P>>();
  /** Notes last seen broken: the text hash (a broken note is warned about once per content), the reason. */
  private readonly broken = new Map<string, { hash: string; reason: string }>();
  private readonly lock = new KeyedLock();
  private readonly externalListeners = new Set<(change: NoteChange<P>) => void>();
  private readonly fileListeners = new Set<(rel: string) => void>();
  private watcher: VaultWatcher | undefined;
  private readonly snapshot: IndexSnapshot<P> | undefined;
  private cancelSnapshot: (() => void) | undefined;
  private cancelCatchUp: (() => void) | undefined;
  private stopped = false;
  /** Task notes the watcher found gone, empty or not a task once, looked at again before that counts. */
  private readonly unsettled = new Map<string, number>();
  /** Notes the watcher could not read, kept as they were (see keepUnreadable). */
  private readonly unreadableNotes = new Set<string>();
  /** The vault folder itself: moved away or unmounted while serving, and back (vault-root.ts). */
  private readonly vaultRoot: VaultRoot;
  /** The extra watched files as last reported (see vaultBack). */
  private readonly fileStamps = new Map<string, string>();
  private readonly sorted = new SortedNotes<NoteRecord<P>>(
    (rel) => this.notes.get(rel),
    () => this.notes.values(),
  );
  /** Notes the watcher reported, waiting for their turn (see queueReconcile). */
  private readonly reconcileQueue = new Set<string>();
  private reconciling = false;
  private versionCounter = 0;

  constructor(private readonly options: VaultStoreOptions<P>) {
    this.snapshot = options.snapshot ? new IndexSnapshot<P>(options.snapshot.file) : undefined;
    this.vaultRoot = new VaultRoot({
      root: options.policy.root,
      intervalMs: options.rootCheckMs ?? 1_000,
      knownNotes: () => this.all().map((record) => record.rel),
      noteExists: (rel) => statOrNone(this.abs(rel)) !== undefined,
      onLost: () => this.vaultLost(),
      onBack: () => this.vaultBack(),
    });
  }

  /** False while the vault folder is moved away or unmounted (the index keeps its last state). */
  get available(): boolean {
    return this.vaultRoot.lostSince === undefined;
  }

  get root(): string {
    return this.options.policy.root;
  }

  /** Increases on every index change; lets callers cache derived data. */
  get version(): number {
    return this.versionCounter;
  }

  get(rel: string): NoteRecord<P> | undefined {
    return this.notes.get(rel);
  }

  /** Every indexed note, sorted by path (sorted-notes.ts keeps the order between changes). */
  all(): readonly NoteRecord<P>[] {
    return this.sorted.list();
  }

  /**
   * Paths of the indexed notes in `folder` and its subfolders (`''`: the whole vault): one stretch
   * of the notes in path order, found by binary search.
   */
  notesUnder(folder: string): string[] {
    return this.sorted.withPrefix(folder === '' ? '' : `${folder}/`).map((r) => r.rel);
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

  /**
   * Full scan into the index (no change reports), then starts the watcher and catches up with what
   * changed before it started (catchUp). The temp files a crash left in the note folders are
   * removed by this first scan.
   */
  async start(prefetch?: NotePrefetch): Promise<void> {
    this.vaultRoot.start();
    for (const rel of this.options.watchFiles ?? []) this.fileStamps.set(rel, this.fileStamp(rel));
    const scan = await this.scan(true, prefetch);
    this.startWatcher(scan.folders, scan.links);
    // Later rather than now: a start's first answers come first, and nothing is lost by waiting,
    // since what changed before the watcher ran still shows in the files' times.
    this.cancelCatchUp = whenQuiet(() => {
      this.cancelCatchUp = undefined;
      void this.catchUp(scan).catch((err: unknown) => {
        this.options.log.warn({ err }, 'cannot look for changes made while the server started');
      });
    }, CATCH_UP_SCHEDULE);
  }

  /**
   * The watcher sees what happens once it runs, but a start walked the vault and read its notes
   * before (for a large vault as early as the command started, note-prefetch.ts): a note another
   * program created, changed or deleted in between, or a folder it created, would stay as the
   * scan saw it until its next change. So once the watcher runs and the server is quiet, the
   * walked folders are listed again and every scanned note is looked up (a turn of the event loop
   * every CATCH_UP_CHUNK notes); whatever is new, gone, or modified since shortly before the walk
   * goes to the watcher as if it had reported it. A note that turns out unchanged is read and left
   * as it is.
   */
  private async catchUp(scan: VaultScan<P>): Promise<void> {
    const since = scan.startedAt - CATCH_UP_MARGIN_MS;
    const scanned = new Set(scan.notes.map((note) => note.rel));
    for (const { path: rel } of scan.unreadable) scanned.add(rel);
    // Named in no way a file can be opened by, and said so by the scan: nothing to look up.
    const misnamed = new Set(scan.unreadable.filter((u) => u.reason === NOT_UTF8_NAME).map((u) => u.path));
    const folders = new Set(scan.folders);
    const report = (rel: string): void => this.watcher?.recheck(rel, 0);
    const { policy } = this.options;
    for (const folder of scan.folders) {
      // Read in batches (opendir), not listed whole (readdir): a folder of 100,000 notes listed
      // at once is one long pause of the event loop while requests wait.
      const dir = await fs.opendir(this.abs(folder), { bufferSize: CATCH_UP_CHUNK }).catch(() => undefined);
      if (!dir) continue;
      try {
        for await (const entry of dir) {
          if (this.stopped) return;
          const rel = folder === '' ? entry.name : `${folder}/${entry.name}`;
          const isNew = entry.isDirectory()
            ? !folders.has(rel) && !isIgnoredFolder(policy, rel)
            : !scanned.has(rel) && isCandidateNote(policy, rel);
          if (isNew) report(rel);
        }
      } catch {
        // The folder went away while it was read: the watcher reports what that removed.
      }
    }
    let looked = 0;
    for (const rel of scanned) {
      if (misnamed.has(rel)) continue;
      if (++looked % CATCH_UP_CHUNK === 0) {
        await new Promise((resolve) => setImmediate(resolve));
        if (this.stopped) return;
      }
      const stat = statOrNone(this.abs(rel));
      if (!stat || stat.mtimeMs >= since || stat.ctimeMs >= since) report(rel);
    }
  }

  /**
   * Re-reads and re-parses every note without reporting changes (e.g. after a settings change),
   * reusing the snapshot's entries of unchanged notes. Returns the folders walked and the notes
   * that are links.
   */
  async rescan(): Promise<{ folders: string[]; links: string[] }> {
    return this.scan(false);
  }

  private async scan(
    atStart: boolean,
    prefetch?: NotePrefetch,
  ): Promise<VaultScan<P>> {
    const { policy, log } = this.options;
    const previous = this.snapshot?.load(this.options.snapshot?.key() ?? '') ?? [];
    const scan = await scanVault(policy, this.options.parse, previous, {
      ...(atStart ? { clearDebris: (temps: string[]) => clearVaultDebris(policy.root, temps, log) } : {}),
      ...(prefetch ? { prefetch } : {}),
    });
    this.adopt(scan, previous.length);
    this.watcher?.watchLinks(scan.links);
    return scan;
  }

  /**
   * Replaces the index with a scan's notes (in path order, so the index lists them without a
   * sort); logs its problems; schedules the snapshot unless the scan reused all of it unchanged.
   */
  private adopt(scan: VaultScan<P>, snapshotSize: number): void {
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
    for (const folder of scan.unlisted) {
      this.options.log.warn({ path: folder }, 'cannot list folder (permission denied); its notes are not served');
    }
    this.sorted.reset();
    this.versionCounter++;
    this.options.onReset?.();
    if (scan.reused === snapshotSize && scan.reused === candidates.length) return;
    this.scheduleSnapshot(this.options.snapshot?.key() ?? '', candidates, scan.startedAt);
  }

  /**
   * Writes the snapshot a little later, once the server is quiet: 10,000 stats and entries are not
   * for the startup path, and serialising a large index while requests are served made both
   * wait, and made the heap grow for good (measured at 100,000 notes on Node 24: 136 MB more RSS
   * after 450 queries run during the snapshot, 57 MB after the same queries run once it was
   * written). Quiet: the event loop was busy less than a quarter of the last second
   * (when-quiet.ts); a server that never gets quiet writes it after a minute.
   */
  private scheduleSnapshot(key: string, candidates: ScannedNote<P>[], scannedAt: number): void {
    const snapshot = this.snapshot;
    if (!snapshot) return;
    this.cancelSnapshot?.();
    this.cancelSnapshot = whenQuiet(() => {
      this.cancelSnapshot = undefined;
      this.snapshotEntries(candidates, scannedAt)
        .then((entries) => entries && snapshot.save(key, entries))
        .catch((err: unknown) => {
          this.options.log.warn({ err }, 'cannot write the index snapshot');
        });
    }, SNAPSHOT_SCHEDULE);
  }

  /**
   * The scanned notes that may be reused by the next start, with the file metadata to check them
   * by (index-snapshot.ts). A note qualifies while the index still holds what the scan read of it
   * and its file was last modified and changed well before the scan began (so not during or after
   * the read): same size in bytes as the text read, mtime and ctime older than the scan by
   * SNAPSHOT_SETTLED_MS (a note edited again within the file system's timestamp granularity could
   * otherwise keep its times and size with new content). Anything else is simply read again next
   * time. Undefined when the store stopped.
   */
  private async snapshotEntries(
    candidates: ScannedNote<P>[],
    scannedAt: number,
  ): Promise<SnapshotEntry<P>[] | undefined> {
    const settledBefore = scannedAt - SNAPSHOT_SETTLED_MS;
    const entries: SnapshotEntry<P>[] = [];
    for (let i = 0; i < candidates.length; i += SNAPSHOT_STAT_CHUNK) {
      if (i > 0) await new Promise((resolve) => setImmediate(resolve));
      if (this.stopped) return undefined;
      for (const note of candidates.slice(i, i + SNAPSHOT_STAT_CHUNK)) {
        const { rel, size, hash, parsed } = note;
        const current = this.notes.get(rel);
        if (parsed === null ? current !== undefined : current !== note) continue; // changed since
        if (note.mtimeMs !== undefined) {
          entries.push(note as SnapshotEntry<P>); // taken from the snapshot unchanged
          continue;
        }
        const stat = statOrNone(this.abs(rel));
        if (!stat?.isFile() || stat.size !== size) continue;
        if (stat.mtimeMs >= settledBefore || stat.ctimeMs >= settledBefore) continue;
        entries.push({ rel, ...stampOf(stat), hash, parsed });
      }
    }
    return entries;
  }

  /** Closes the watcher and waits for queued and running writes. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.vaultRoot.stop();
    this.cancelSnapshot?.();
    this.cancelCatchUp?.();
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
    // Not found is not the answer while the whole vault folder is missing.
    this.vaultRoot.assertInPlace('');
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
   * Runs `attempt` (under the note's lock: a fresh read, the change computed from it, a write with
   * that read's hash as basis) again while its write finds the note changed by another program
   * since the read, so the change is re-applied to the current note instead of overwriting it.
   * After MAX_WRITE_ATTEMPTS such collisions nothing is written and it fails with CONFLICT.
   */
  async retryOnChange<T>(rel: string, attempt: () => Promise<T>): Promise<T> {
    for (let tries = 1; ; tries++) {
      try {
        return await attempt();
      } catch (err) {
        if (!(err instanceof NoteChangedError)) throw err;
        if (tries >= MAX_WRITE_ATTEMPTS) {
          throw conflict(`${rel} kept changing on disk while it was being written; nothing was written, try again`);
        }
        this.options.log.debug({ path: rel, tries }, 'note changed on disk during a write; redoing the change');
      }
    }
  }

  /**
   * Under the note's lock: writes the note atomically (through to its target when the note is a
   * file link) and updates the index. Returns the new record, or undefined when the written text
   * is not a task note. A path the link rule refuses is never written (CONFLICT).
   *
   * `basis` is the hash of the text the new text was computed from (null: a new note, the path
   * must still be free). The note is replaced only if it still is that text (checkedReplace); if
   * another program changed it meanwhile, nothing is written and NoteChangedError is thrown (see
   * retryOnChange).
   */
  async write(rel: string, text: string, basis: string | null): Promise<NoteRecord<P> | undefined> {
    await this.writeFile(rel, text, basis);
    return this.index(rel, text);
  }

  /** The atomic write of a note; a refusal of the file system is a 503 (note-write-error.ts). */
  private async writeFile(rel: string, text: string, basis: string | null): Promise<void> {
    try {
      await this.writeNoteFile(rel, text, basis);
    } catch (err) {
      throw noteWriteFailure(err, (why) => `${rel} could not be written (${why}); nothing was changed`);
    }
  }

  /**
   * Under the old note's lock: a rename that also changes content. The new content is written
   * at the old path first (with the same re-check as `write`), then the note is renamed to
   * `newRel` (unused; reserved by the caller): a crash at any point leaves exactly one note, and
   * the watcher sees our own content arrive at the new path. Returns the new record as `write`.
   */
  async move(oldRel: string, newRel: string, text: string, basis: string): Promise<NoteRecord<P> | undefined> {
    return this.lock.run(newRel, async () => {
      // Checked before the note is written too: a move that cannot happen changes nothing.
      this.checkNewPath(newRel);
      await this.writeFile(oldRel, text, basis);
      // The index holds what is on disk before the rename is tried (a redo then starts clean).
      this.index(oldRel, text);
      try {
        this.renameNote(oldRel, newRel);
      } catch (err) {
        throw noteWriteFailure(err, (why) => `${oldRel} was updated but could not be moved to ${newRel} (${why})`);
      }
      this.setRecord(oldRel, undefined);
      return this.index(newRel, text);
    });
  }

  private async writeNoteFile(rel: string, text: string, basis: string | null): Promise<void> {
    const entry = this.writable(rel);
    warnIfNoSwap(this.options.log);
    const replace = checkedReplace(rel, basis ?? undefined);
    await writeFileAtomic(entry.real, text, {
      mkdir: true,
      // Writing the temp file takes a while (half a second for a 5 MB note): a folder on the way
      // swapped for a link meanwhile would have the note replaced behind it. The path is judged
      // again in the same synchronous step as the replacement, and the temp file removed.
      replace: (tmp, target) => {
        if (this.writable(rel).real !== entry.real) throw refusedPath('write', rel);
        return replace(tmp, target);
      },
    });
  }

  /**
   * Where a note may be written: never into `.obsidian/` or the data dir (whatever a caller
   * computed the path from), through a refused link, or onto a folder.
   */
  private writable(rel: string): Extract<VaultEntry, { real: string }> {
    if (isReservedVaultPath(this.options.policy, rel)) throw refusedPath('write', rel, RESERVED_FOLDER);
    // Otherwise the write would create the folders again at the old path (an empty mount point).
    this.vaultRoot.assertInPlace('; nothing was written');
    const entry = inspectVaultPath(this.options.policy, rel);
    if (entry.kind === 'refused') throw refusedPath('write', rel, entry.reason);
    if (entry.kind === 'folder') throw refusedPath('write', rel, 'it is a folder');
    return entry;
  }

  /** Throws unless a note may be moved or renamed to `rel` now (nothing is there yet). */
  private checkNewPath(rel: string): string {
    const entry = this.writable(rel);
    if (entry.kind !== 'missing') throw new NoteChangedError(rel);
    return entry.real;
  }

  /** Indexes written text (when the path is a candidate note and the text a task). */
  private index(rel: string, text: string): NoteRecord<P> | undefined {
    const record = isCandidateNote(this.options.policy, rel) ? this.parseRecord(rel, text) : undefined;
    this.setRecord(rel, record);
    return record;
  }

  /**
   * Renames a note to an unused path (synchronously: the check that it is unused and the rename
   * are one step). A note that is a link moves as the link; when its folder changes, it is first
   * replaced (atomically) by a link to the absolute target path, so it never dangles.
   */
  private renameNote(oldRel: string, newRel: string): void {
    const policy = this.options.policy;
    const from = inspectVaultPath(policy, oldRel);
    if (from.kind !== 'file') throw refusedPath('rename', oldRel);
    const target = this.checkNewPath(newRel);
    const oldAbs = this.abs(oldRel);
    mkdirSync(path.dirname(target), { recursive: true });
    if (from.link && path.posix.dirname(oldRel) !== path.posix.dirname(newRel)) {
      const tmp = tempPathFor(oldAbs);
      symlinkSync(from.real, tmp);
      renameSync(tmp, oldAbs);
    }
    renameSync(oldAbs, target);
  }

  /**
   * Under the note's lock: moves the note to `<vault>/.trash/` (a hidden, never-scanned folder).
   * A note that is a link moves as the link; its target stays.
   */
  async trash(rel: string): Promise<void> {
    const policy = this.options.policy;
    this.vaultRoot.assertInPlace('; nothing was deleted');
    if (inspectVaultPath(policy, rel).kind !== 'file') throw refusedPath('delete', rel);
    const base = path.basename(rel, '.md');
    let target = `.trash/${base}.md`;
    for (let i = 2; await pathExists(this.abs(target)); i++) target = `.trash/${base} ${i}.md`;
    if (inspectVaultPath(policy, target).kind !== 'missing') throw refusedPath('delete', rel);
    try {
      // Not recursive: `.trash` is in the vault folder, which is in place, and a recursive mkdir
      // on a read-only file system reports ENOENT rather than EROFS.
      await fs.mkdir(this.abs('.trash')).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'EEXIST') throw err;
      });
      await fs.rename(this.abs(rel), this.abs(target));
    } catch (err) {
      throw noteWriteFailure(err, (why) => `${rel} could not be deleted (${why}); nothing was changed`);
    }
    this.setRecord(rel, undefined);
  }

  private abs(rel: string): string {
    return path.join(this.root, ...rel.split('/'));
  }

  /**
   * The one place a note's record changes after a scan: the index, the sorted list (a replaced
   * record takes its predecessor's place; additions and removals are merged in on the next
   * `all()`), the version, and the owner's onChange.
   */
  private setRecord(rel: string, after: NoteRecord<P> | undefined): void {
    const before = this.notes.get(rel);
    if (!before && !after) return;
    if (after) this.notes.set(rel, after);
    else this.notes.delete(rel);
    if (before && after) this.sorted.replace(rel, after);
    else if (after) this.sorted.add(rel);
    else this.sorted.remove(rel);
    this.versionCounter++;
    this.options.onChange?.(rel, before, after);
  }

  /**
   * The note's text, or undefined when the path holds no note the scan would index (a note that
   * vanished or became a folder since it was listed is simply not there). Throws
   * NoteUnreadableError for a note there that cannot be read now.
   */
  private readText(rel: string): string | undefined {
    const policy = this.options.policy;
    if (!isCandidateNote(policy, rel)) return undefined;
    try {
      const entry = inspectVaultPathForRead(policy, rel);
      return entry.kind === 'file' ? readNote(entry.real).text : undefined;
    } catch (err) {
      if (isGoneError(err)) return undefined;
      throw new NoteUnreadableError(rel, (err as NodeJS.ErrnoException).code ?? String(err));
    }
  }

  /**
   * The watcher found a note it cannot read (NoteUnreadableError): it stays as it was, warned
   * about once, and is looked at again every UNREADABLE_RECHECK_MS (its permissions given back
   * make an event too). Reported deleted, it would have been reported created again when
   * readable, and the automations behind the webhooks would have deleted it meanwhile.
   */
  private keepUnreadable(rel: string, err: NoteUnreadableError): undefined {
    if (!this.unreadableNotes.has(rel)) {
      this.unreadableNotes.add(rel);
      this.options.log.warn({ path: rel, reason: err.reason }, 'cannot read note; serving it as it was');
    }
    this.unsettled.delete(rel);
    this.watcher?.recheck(rel, UNREADABLE_RECHECK_MS);
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

  /** The note's file, as the path rule lets it be looked at (undefined: none there to look at). */
  private noteStat(rel: string): Stats | undefined {
    const entry = inspectVaultPath(this.options.policy, rel);
    return entry.kind === 'file' ? statOrNone(entry.real) : undefined;
  }

  /** Whether the note's file was last written less than `ms` ago (by anyone). */
  private savedWithin(rel: string, ms: number, stat = this.noteStat(rel)): boolean {
    const age = stat ? Date.now() - stat.mtimeMs : Infinity;
    return age >= 0 && age < ms;
  }

  /**
   * True while the note's file looks mid-rewrite in place: written after it was created (an
   * atomic save, ours or another program's, is a new file complete when it appears) and less
   * than QUIET_MS ago. Where the file system keeps no creation time, any recent write counts.
   */
  private beingRewritten(rel: string): boolean {
    const stat = this.noteStat(rel);
    if (!stat || stat.mtimeMs - stat.birthtimeMs <= IN_PLACE_MARGIN_MS) return false;
    return this.savedWithin(rel, QUIET_MS, stat);
  }

  /** What a read of a note found, compared with its record: parsed only when the text changed. */
  private examine(rel: string, text: string | undefined, before: NoteRecord<P> | undefined): Examined<P> {
    if (text === undefined) return {};
    const hash = hashText(text);
    if (before?.hash === hash) return { hash, unchanged: true };
    try {
      const parsed = this.options.parse(rel, text);
      return parsed === null ? { hash } : { hash, after: { rel, hash, parsed } };
    } catch (err) {
      return { hash, broken: err instanceof Error ? err.message : String(err) };
    }
  }

  /** Notes left out because their frontmatter is not valid YAML, with the parser's reason. */
  brokenNotes(): Array<{ path: string; reason: string }> {
    return [...this.broken].map(([rel, { reason }]) => ({ path: rel, reason }));
  }

  /** Logs a broken note once per content. */
  private warnBroken(rel: string, hash: string, reason: string): void {
    if (this.broken.get(rel)?.hash === hash) return;
    this.broken.set(rel, { hash, reason });
    this.options.log.warn({ path: rel, reason }, 'skipping note with invalid frontmatter');
  }

  /**
   * Brings one index entry in line with the disk; reports the change when there is one. Returns
   * the text read (undefined when the file is gone).
   *
   * A program that rewrites a note in place truncates it before writing the new text (a slow one
   * writes it in parts), and a read can land in between. A task note found gone, empty or no
   * longer a task is therefore looked at again before that counts: the watcher looks once more
   * UNSETTLED_GRACE_MS later (or at the write's own event). A request re-reads it every
   * UNSETTLED_RETRY_MS for up to as long; it also waits while a task note changed by another
   * program is being rewritten in place (beingRewritten), and gives up (CONFLICT, nothing
   * changed) if that does not end within the grace: a write built on half of an in-place save
   * would pass the re-check before its rename while the other program pauses mid-save, and the
   * rest of that save would go to the replaced file. So a rewrite is one change, never a deletion
   * followed by a creation, and a request never answers 404 for, nor builds on, a note being
   * saved.
   */
  private async reconcile(rel: string, fromWatcher = false): Promise<string | undefined> {
    // A note gone because the whole vault folder is (an unmount) was not deleted.
    if (fromWatcher && !this.vaultRoot.check()) return undefined;
    const before = this.notes.get(rel);
    let text;
    try {
      text = this.readText(rel);
    } catch (err) {
      if (fromWatcher && err instanceof NoteUnreadableError) return this.keepUnreadable(rel, err);
      throw err;
    }
    this.unreadableNotes.delete(rel);
    let read = this.examine(rel, text, before);
    if (fromWatcher && before && !read.unchanged && !read.after) {
      // Looked at again while another program keeps saving it, for as long as UNSETTLED_MAX_MS.
      const since = this.unsettled.get(rel);
      const saving = since !== undefined && text !== undefined && this.savedWithin(rel, UNSETTLED_GRACE_MS);
      if (since === undefined || (saving && Date.now() - since < UNSETTLED_MAX_MS)) {
        if (since === undefined) this.unsettled.set(rel, Date.now());
        this.watcher?.recheck(rel, UNSETTLED_GRACE_MS);
        return text;
      }
    }
    if (!fromWatcher) {
      // A request builds a write on what it reads: not on a note caught mid-save.
      for (let waited = 0; waited < UNSETTLED_GRACE_MS; waited += UNSETTLED_RETRY_MS) {
        if (read.unchanged || !before || (read.after && !this.beingRewritten(rel))) break;
        await new Promise((resolve) => setTimeout(resolve, UNSETTLED_RETRY_MS));
        text = this.readText(rel);
        read = this.examine(rel, text, before);
      }
      // Still caught mid-save after the grace (a program saving it in place again and again, each
      // read landing after its truncation): not a deletion, a save in progress.
      const midSave = read.after ? this.beingRewritten(rel) : text !== undefined && this.savedWithin(rel, UNSETTLED_GRACE_MS);
      if (before && !read.unchanged && midSave) {
        throw conflict(`${rel} is being saved by another program right now; nothing was changed, try again`);
      }
    }
    this.unsettled.delete(rel);
    if (read.unchanged) return text;
    if (read.broken !== undefined && read.hash !== undefined) this.warnBroken(rel, read.hash, read.broken);
    else if (text !== undefined) this.broken.delete(rel);
    const after = read.after;
    if (!before && !after) return text;
    this.setRecord(rel, after);
    const change: NoteChange<P> =
      before && after
        ? { kind: 'changed', before, after }
        : after
          ? { kind: 'added', after }
          : { kind: 'removed', before: before as NoteRecord<P> };
    const { recording } = this.options;
    if (!fromWatcher || !recording) {
      this.report(rel, change);
      return text;
    }
    try {
      await recording(async () => this.report(rel, change));
    } catch (err) {
      // Not recorded: the index goes back to what was, and the change is reported again later.
      if (this.notes.get(rel) === after) this.setRecord(rel, before);
      this.options.log.warn(
        { err, path: rel },
        `the events of a change by another program could not be recorded; trying again in ${EVENTS_RETRY_MS / 1000} s`,
      );
      this.watcher?.recheck(rel, EVENTS_RETRY_MS);
    }
    return text;
  }

  /** Tells the external-change listeners of a change; one failing does not stop the others. */
  private report(rel: string, change: NoteChange<P>): void {
    for (const listener of this.externalListeners) {
      try {
        listener(change);
      } catch (err) {
        this.options.log.error({ err, path: rel }, 'vault change listener failed');
      }
    }
  }

  /**
   * Reconciles a note the watcher reported, in turn: at most RECONCILE_BATCH notes are read at
   * once, with a turn of the event loop between batches. Another program writing or deleting
   * 5,000 notes at once would otherwise have 5,000 reads in flight whose completions, and the
   * index updates and events after them, run back to back while requests wait (the scale bench's
   * burst: `GET /api/health` waited up to 0.9 s).
   */
  private queueReconcile(rel: string): void {
    this.reconcileQueue.add(rel);
    if (this.reconciling) return;
    this.reconciling = true;
    void (async () => {
      while (this.reconcileQueue.size > 0 && !this.stopped) {
        const batch: string[] = [];
        for (const next of this.reconcileQueue) {
          batch.push(next);
          if (batch.length === RECONCILE_BATCH) break;
        }
        for (const next of batch) this.reconcileQueue.delete(next);
        await Promise.all(
          batch.map((next) =>
            this.lock.run(next, () => this.reconcile(next, true)).catch((err: unknown) => {
              this.options.log.error({ err, path: next }, 'failed to reconcile a vault change');
            }),
          ),
        );
        await new Promise((resolve) => setImmediate(resolve));
      }
      this.reconciling = false;
    })();
  }

  /**
   * The vault folder went missing: the index stays as it was (nothing reported deleted), the
   * watcher stops (its watches ended with an unmount, or follow a folder moved elsewhere), and
   * requests that need the disk answer 503 until the folder is back.
   */
  private vaultLost(): void {
    this.options.log.error(
      { path: this.root },
      'the vault folder is gone (moved or unmounted): serving the tasks as they were, refusing ' +
        'writes, waiting for it to come back',
    );
    this.watcher?.close();
    this.watcher = undefined;
    this.reconcileQueue.clear();
    this.unsettled.clear();
    this.cancelCatchUp?.();
    this.cancelCatchUp = undefined;
  }

  /**
   * The vault folder is back: watched again from a fresh walk, and every note it holds or the
   * index held is reconciled, so what changed meanwhile is reported as any other change is (a
   * note unchanged is read and left as it is). An extra watched file is reported when it changed.
   */
  private vaultBack(): void {
    if (this.stopped) return;
    this.options.log.info({ path: this.root }, 'the vault folder is back: watching it again');
    const walk = walkVault(this.options.policy);
    this.startWatcher(walk.folders, walk.links);
    for (const rel of new Set([...walk.notes, ...this.notes.keys()])) this.queueReconcile(rel);
    for (const rel of this.options.watchFiles ?? []) {
      if (this.fileStamp(rel) !== this.fileStamps.get(rel)) this.fileChanged(rel);
    }
  }

  /** Reports a change of an extra watched file, remembering how the file was then. */
  private fileChanged(rel: string): void {
    this.fileStamps.set(rel, this.fileStamp(rel));
    for (const listener of this.fileListeners) listener(rel);
  }

  /** What tells whether an extra watched file changed. */
  private fileStamp(rel: string): string {
    const stat = statOrNone(this.abs(rel));
    return stat ? `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}` : '';
  }

  private startWatcher(folders: readonly string[], links: readonly string[]): void {
    const watcher = new VaultWatcher({
      policy: this.options.policy,
      log: this.options.log,
      watchFiles: this.options.watchFiles ?? [],
      debounceMs: this.options.stabilityMs ?? 50,
      onNote: (rel) => this.queueReconcile(rel),
      onFile: (rel) => this.fileChanged(rel),
      notesUnder: (folder) => this.notesUnder(folder),
    });
    watcher.start(folders);
    watcher.watchLinks(links);
    this.watcher = watcher;
  }
}

/** Notes the watcher's changes are reconciled in at once (see queueReconcile). */
const RECONCILE_BATCH = 32;
/**
 * How long before a start's walk a note modified then is looked at again once the watcher runs
 * (catchUp): file times are rounded to the file system's granularity (up to 2 s on FAT volumes).
 */
const CATCH_UP_MARGIN_MS = 2_000;
/**
 * Notes looked up (and folder entries read) between two yields while a start catches up. On the
 * 100,000-task bench vault the catch-up took about 1.5 s with the event loop never held more than
 * 5 ms by it; with 500 a turn, up to 15 ms (Node 20.20, the longest event-loop delay of each second).
 */
const CATCH_UP_CHUNK = 100;
/**
 * When a start catches up: once quiet, half a second after the start at the earliest, within 10 s.
 * Measured at the first answer after a first start on the 10,000-task bench vault (Node 20.20):
 * right after the watcher started it cost 47 ms of the wall time and 90 ms of CPU.
 */
const CATCH_UP_SCHEDULE: QuietOptions = { minDelayMs: 500, maxDelayMs: 10_000, recheckMs: 250, threshold: 0.25 };
/** A note modified this recently before a scan is read again next time rather than snapshotted. */
const SNAPSHOT_SETTLED_MS = 2_000;
/** Notes checked between two yields while the snapshot is prepared. */
const SNAPSHOT_STAT_CHUNK = 500;
/** Writes of one change before a note that keeps changing under it fails (see retryOnChange). */
const MAX_WRITE_ATTEMPTS = 10;
/** How long a task note may read as gone, empty or not a task before that counts (see reconcile). */
const UNSETTLED_GRACE_MS = 250;
/**
 * How long the watcher goes on looking at such a note while it keeps being written (a program
 * saving it in place again and again) before its state counts.
 */
const UNSETTLED_MAX_MS = 2000;
/** When a change by another program whose events could not be recorded is looked at again. */
const EVENTS_RETRY_MS = 2_000;
/** How often a note the watcher cannot read is looked at again (see keepUnreadable). */
const UNREADABLE_RECHECK_MS = 5_000;
/** A request's re-reads of such a note within UNSETTLED_GRACE_MS. */
const UNSETTLED_RETRY_MS = 10;
/**
 * Quiet time after another program's in-place write before a request builds on the note: longer
 * than the pauses of a program writing a note in parts, short enough to fit between the saves of
 * a program saving every 20 ms.
 */
const QUIET_MS = 10;
/** When a full scan's snapshot is written: 2 s later at the earliest, once quiet, within a minute. */
const SNAPSHOT_SCHEDULE: QuietOptions = { minDelayMs: 2_000, maxDelayMs: 60_000, recheckMs: 1_000, threshold: 0.25 };


/**
 * The file's metadata, or undefined when there is none to look at now: gone, or refused (a
 * folder's permissions changed meanwhile). Whoever needs to know which reads the note.
 */
function statOrNone(abs: string): Stats | undefined {
  try {
    return statSync(abs, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

async function pathExists(abs: string): Promise<boolean> {
  try {
    await fs.lstat(abs);
    return true;
  } catch {
    return false;
  }
}

