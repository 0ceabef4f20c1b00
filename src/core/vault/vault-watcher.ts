/**
 * Watches a vault for changes made by other programs: one non-recursive `fs.watch` per folder
 * (chokidar put one watcher on every file, which cost 1.3 s and 60 MB on a 10,000-note vault).
 *
 * Events are only hints: after a per-path quiet period the path is classified by looking at the
 * disk (stat), and the owner reconciles a note by reading it and comparing it with the index, so
 * an atomic save by another program (which arrives as `rename`) and an in-place write (`change`)
 * end the same way. Folders created later get watchers (and their notes are reported); removed
 * folders lose them (and their indexed notes are reconciled). Hidden, reserved and data folders
 * are not watched, except the folders leading to an extra watched file (`.obsidian/...`).
 * Folder links are never entered (vault-entry.ts); a note that is a file link is watched at its
 * target too, since an edit of the target changes nothing in the link's folder.
 */
import { watch, type FSWatcher } from 'node:fs';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../logger.js';
import { isTempFileName } from './atomic-write.js';
import type { VaultPathPolicy } from './paths.js';
import { inspectVaultPath } from './vault-entry.js';
import { isCandidateNote, isIgnoredFolder, isMisnamed, NOT_UTF8_NAME, walkVault } from './vault-walk.js';

export interface VaultWatcherOptions {
  policy: VaultPathPolicy;
  log: Logger;
  /** Vault-relative files outside the note index whose changes are reported (e.g. plugin settings). */
  watchFiles: readonly string[];
  /** Quiet period per path before it is looked at: lets a burst of writes settle into one read. */
  debounceMs: number;
  /** A candidate note may have been created, changed, renamed or removed. */
  onNote(rel: string): void;
  /** An extra watched file may have changed. */
  onFile(rel: string): void;
  /** Indexed notes under a folder, to reconcile when the folder disappears or is renamed. */
  notesUnder(folder: string): string[];
}

/** Paths settled at once (see queueSettle). */
const SETTLE_BATCH = 64;

const join = (folder: string, name: string): string => (folder === '' ? name : `${folder}/${name}`);
const parentOf = (rel: string): string => rel.split('/').slice(0, -1).join('/');

export class VaultWatcher {
  private readonly watchers = new Map<string, FSWatcher>();
  /** Watchers of the targets of notes that are file links, by the link's path. */
  private readonly linkWatchers = new Map<string, FSWatcher>();
  /** Names reported that are not UTF-8 (vault-walk.ts), warned about once each. */
  private readonly misnamed = new Set<string>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Paths whose quiet period ended, waiting for their turn (see queueSettle). */
  private readonly settleQueue = new Set<string>();
  private settling = false;
  private readonly extra: Set<string>;
  /** Folders leading to an extra file: watched even when hidden, but only for that path. */
  private readonly extraFolders = new Set<string>();
  private closed = false;

  constructor(private readonly options: VaultWatcherOptions) {
    this.extra = new Set(options.watchFiles);
    for (const file of this.extra) {
      const parts = file.split('/');
      for (let i = 0; i < parts.length; i++) this.extraFolders.add(parts.slice(0, i).join('/'));
    }
  }

  /** Watches the scanned folders plus the existing folders leading to extra files. */
  start(folders: readonly string[]): void {
    for (const folder of folders) this.watchFolder(folder);
    for (const folder of this.extraFolders) this.watchFolder(folder);
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
    for (const watcher of this.linkWatchers.values()) watcher.close();
    this.linkWatchers.clear();
  }

  /** Watches the targets of notes that are file links (found by a scan or walk). */
  watchLinks(links: readonly string[]): void {
    for (const rel of links) this.watchLink(rel);
  }

  /**
   * (Re)arms the watcher of a link note's target: an atomic save replaces the target's file, so
   * the old watcher ends with that file and each event re-arms before the note is read.
   */
  private watchLink(rel: string): void {
    this.linkWatchers.get(rel)?.close();
    this.linkWatchers.delete(rel);
    if (this.closed) return;
    const entry = inspectVaultPath(this.options.policy, rel);
    if (entry.kind !== 'file' || !entry.link) return;
    try {
      const watcher = watch(entry.real, () => this.schedule(rel));
      watcher.on('error', () => this.schedule(rel));
      this.linkWatchers.set(rel, watcher);
    } catch {
      // Gone meanwhile: the next event of the link's folder looks again.
    }
  }

  private abs(rel: string): string {
    return path.join(this.options.policy.root, ...rel.split('/'));
  }

  private isNoteFolder(rel: string): boolean {
    return !rel.split('/').some((_, i, parts) => isIgnoredFolder(this.options.policy, parts.slice(0, i + 1).join('/')));
  }

  /** Starts watching one folder (no-op when watched or gone). */
  private watchFolder(folder: string): void {
    if (this.closed || this.watchers.has(folder)) return;
    const noteFolder = folder === '' || this.isNoteFolder(folder);
    let watcher: FSWatcher;
    try {
      watcher = watch(this.abs(folder), (_event, name) => {
        if (name === null) {
          void this.resync(folder);
          return;
        }
        const rel = join(folder, name.toString());
        if (isTempFileName(path.posix.basename(rel))) return;
        if (noteFolder || this.extra.has(rel) || this.extraFolders.has(rel)) this.schedule(rel);
      });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') this.options.log.warn({ err, path: folder }, 'cannot watch folder');
      return;
    }
    watcher.on('error', (err) => {
      // A removed folder may report an error instead of (or before) its parent's event.
      this.unwatch(folder);
      this.schedule(folder);
      if ((err as NodeJS.ErrnoException).code !== 'EPERM') this.options.log.warn({ err, path: folder }, 'vault watcher error');
    });
    this.watchers.set(folder, watcher);
  }

  private unwatch(folder: string): void {
    for (const [rel, watcher] of this.watchers) {
      if (rel === folder || rel.startsWith(`${folder}/`)) {
        watcher.close();
        this.watchers.delete(rel);
      }
    }
  }

  /** Looks at `rel` again after `delayMs` (unless an event comes first and reschedules it). */
  recheck(rel: string, delayMs: number): void {
    this.schedule(rel, delayMs);
  }

  private schedule(rel: string, delayMs = this.options.debounceMs): void {
    if (this.closed) return;
    clearTimeout(this.timers.get(rel));
    this.timers.set(
      rel,
      setTimeout(() => {
        this.timers.delete(rel);
        this.queueSettle(rel);
      }, delayMs),
    );
  }

  /**
   * Settles quiet paths in turn: at most SETTLE_BATCH at once, with a turn of the event loop
   * between batches. When another program writes thousands of notes within a second, thousands of
   * quiet periods end together; settling them all in one go kept requests waiting for a third of
   * a second on the scale bench.
   */
  private queueSettle(rel: string): void {
    this.settleQueue.add(rel);
    if (this.settling) return;
    this.settling = true;
    void (async () => {
      while (this.settleQueue.size > 0 && !this.closed) {
        const batch: string[] = [];
        for (const next of this.settleQueue) {
          batch.push(next);
          if (batch.length === SETTLE_BATCH) break;
        }
        for (const next of batch) this.settleQueue.delete(next);
        await Promise.all(
          batch.map((next) =>
            this.settle(next).catch((err: unknown) =>
              this.options.log.error({ err, path: next }, 'vault watcher failed'),
            ),
          ),
        );
        await new Promise((resolve) => setImmediate(resolve));
      }
      this.settling = false;
    })();
  }

  /** Classifies a path by what is on disk now and reports what may have changed. */
  private async settle(rel: string): Promise<void> {
    if (this.closed) return;
    if (this.extra.has(rel)) {
      this.options.onFile(rel);
      return;
    }
    const stat = await fs.lstat(this.abs(rel)).catch(() => undefined);
    if (this.closed) return;
    if (stat?.isDirectory()) {
      this.folderAppeared(rel);
      return;
    }
    if (rel !== '' && (this.watchers.has(rel) || (!stat && this.options.notesUnder(rel).length > 0))) {
      // A folder was removed, renamed away or replaced (by a link, say): its notes are gone.
      this.unwatch(rel);
      for (const note of this.options.notesUnder(rel)) this.options.onNote(note);
    }
    if (isCandidateNote(this.options.policy, rel)) {
      if (!stat && isMisnamed(rel) && !this.misnamed.has(rel)) {
        this.misnamed.add(rel);
        this.options.log.warn({ path: rel, reason: NOT_UTF8_NAME }, 'cannot read note');
      }
      if (stat?.isSymbolicLink() || this.linkWatchers.has(rel)) this.watchLink(rel);
      this.options.onNote(rel);
    }
  }

  /** Some platforms omit the name of a changed entry: look at everything the folder holds. */
  private async resync(folder: string): Promise<void> {
    const names = await fs.readdir(this.abs(folder)).catch(() => []);
    for (const name of names) this.schedule(join(folder, name));
    for (const rel of this.options.notesUnder(folder)) this.schedule(rel);
  }

  private folderAppeared(rel: string): void {
    if (this.extraFolders.has(rel)) {
      // Created together with its contents (mkdir -p + write): look at what is already there.
      for (const next of [...this.extra, ...this.extraFolders]) {
        if (next !== rel && parentOf(next) === rel) this.schedule(next);
      }
    }
    if (this.watchers.has(rel)) return;
    if (!this.isNoteFolder(rel)) {
      if (this.extraFolders.has(rel)) this.watchFolder(rel);
      return;
    }
    // A new folder (or one moved in): watch it and everything under it, and report its notes.
    const walk = walkVault(this.options.policy, rel);
    for (const folder of walk.folders) this.watchFolder(folder);
    this.watchLinks(walk.links);
    // In path order, whatever order the folder lists them in.
    for (const note of walk.notes.sort()) this.options.onNote(note);
  }
}
