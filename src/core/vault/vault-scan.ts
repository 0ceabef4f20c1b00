/**
 * Which vault files are candidate notes, the walk that finds them and the scan that reads and
 * parses them. Hidden folders (`.obsidian`, `.trash`, `.git`, the default data dir), the data dir
 * and temp files of atomic writes are never notes. Links follow the rule of vault-entry.ts: the
 * walk enters real folders only (a folder link's directory entry is no directory), and a note
 * that is a link counts when its target may be used.
 */
import { hash } from 'node:crypto';
import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import { isTempFileName } from './atomic-write.js';
import { sameStamp, type FileStamp, type SnapshotEntry } from './index-snapshot.js';
import { NotePrefetch, type PrefetchedChunk, type PrefetchMode } from './note-prefetch.js';
import { isReservedVaultPath, type VaultPathPolicy } from './paths.js';
import { fileLinkTarget } from './vault-entry.js';

const toPosix = (p: string): string => p.split(path.sep).join('/');

export function relativeToVault(root: string, abs: string): string {
  return toPosix(path.relative(root, abs));
}

/** True for a vault-relative folder that the scanner and watcher never enter. */
export function isIgnoredFolder(policy: VaultPathPolicy, rel: string): boolean {
  if (rel === '') return false;
  const name = rel.split('/').pop() ?? '';
  return name.startsWith('.') || name === 'node_modules' || isReservedVaultPath(policy, rel);
}

/** True for a file name (no folder) that can hold a note: `.md`, not hidden, not a temp file. */
function isNoteFileName(name: string): boolean {
  return name.toLowerCase().endsWith('.md') && !name.startsWith('.') && !isTempFileName(name);
}

/** True for a vault-relative file path that can hold a task note. */
export function isCandidateNote(policy: VaultPathPolicy, rel: string): boolean {
  const segments = rel.split('/');
  if (!isNoteFileName(segments.pop() ?? '')) return false;
  let folder = '';
  for (const seg of segments) {
    folder = folder === '' ? seg : `${folder}/${seg}`;
    if (isIgnoredFolder(policy, folder)) return false;
  }
  return true;
}

/** Candidate notes and the folders that were entered (vault-relative, unsorted). */
export interface VaultWalk {
  notes: string[];
  /** Every non-ignored folder walked, the start folder included (`''` is the vault root). */
  folders: string[];
  /** The notes that are file links (their targets are watched separately). */
  links: string[];
  /** Temp files of atomic writes (crash debris at start; see crash-debris.ts). */
  temps: string[];
}

/**
 * Walks the vault (or one folder of it, e.g. a folder created after startup). Synchronous, like
 * the reads that follow it: listing a folder is a single system call, and an asynchronous walk
 * only added a thread-pool round trip per folder to the start.
 */
export function walkVault(policy: VaultPathPolicy, from = ''): VaultWalk {
  const notes: string[] = [];
  const folders: string[] = [];
  const links: string[] = [];
  const temps: string[] = [];
  const walk = (relDir: string): void => {
    let entries;
    try {
      entries = readdirSync(path.join(policy.root, relDir), { withFileTypes: true });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return;
      throw err;
    }
    folders.push(relDir);
    for (const entry of entries) {
      const rel = relDir === '' ? entry.name : `${relDir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!isIgnoredFolder(policy, rel)) walk(rel);
      } else if (entry.isFile() && isNoteFileName(entry.name)) {
        // The folder was checked on the way down: only the name is left to check.
        notes.push(rel);
      } else if (entry.isSymbolicLink() && isNoteFileName(entry.name)) {
        if (fileLinkTarget(policy, rel, path.join(policy.root, relDir, entry.name)).kind === 'file') {
          notes.push(rel);
          links.push(rel);
        }
      } else if (entry.name.startsWith('.') && isTempFileName(entry.name) && !entry.isDirectory()) {
        temps.push(rel);
      }
    }
  };
  walk(from);
  return { notes, folders, links, temps };
}

/** Parses a note's text: the parsed value for an indexed note, null for any other note; throws when broken. */
export type NoteParser<P> = (rel: string, text: string) => P | null;

/** One candidate note as a scan found it. */
export interface ScannedNote<P> {
  rel: string;
  hash: string;
  /** Size in bytes of the text read. */
  size: number;
  /**
   * The file's modification time, status-change time and inode, known when the note was taken
   * from the index snapshot unchanged (the entry itself is the scanned note). A note read by the
   * scan has none: they are looked up when the snapshot is written (see VaultStore), off the
   * start's critical path.
   */
  mtimeMs?: number;
  ctimeMs?: number;
  ino?: number;
  /** The parser's result; null for a note that is not indexed (e.g. not a task) or is broken. */
  parsed: P | null;
  /** Why the parser failed (broken frontmatter): the note is left out of the index. */
  broken?: string;
}

/** A full scan: every readable candidate note, the folders walked, and problems to log. */
export interface VaultScan<P> {
  /** In path order (code-unit order, as VaultStore lists notes). */
  notes: ScannedNote<P>[];
  folders: string[];
  /** Notes that are file links. */
  links: string[];
  /** Notes that exist but could not be read (other than vanishing during the scan). */
  unreadable: Array<{ path: string; reason: string }>;
  /** When the scan began (epoch ms): every note it read was read after this. */
  startedAt: number;
  /** How many notes were taken from the snapshot unchanged (not read). */
  reused: number;
}

/** Notes read and parsed between two yields to the event loop (~10-20 ms of work). */
const SCAN_CHUNK = 500;

/**
 * Below this many notes a start reads (or looks up) its notes itself: creating the reader thread
 * costs the main thread about 9 ms (Node 20.20), what reading some 250 notes takes, so a small
 * vault gains little from it.
 */
const PREFETCH_MIN_NOTES = 2_000;

/**
 * Reads and parses every candidate note, reusing the `previous` entries (an index snapshot, in
 * path order) whose file is unchanged by its metadata (index-snapshot.ts): those notes are not
 * read. It only reads: the store adopts the result (and logs its problems).
 *
 * Notes are read synchronously (readNote): with the files in the page cache an asynchronous read
 * only adds a thread-pool round trip and a promise per note (measured on the 10,000-note bench
 * vault: 70-140 ms against 240-340 ms), and an fstat per note another 10% of the scan's CPU.
 * Yielding between chunks keeps a rescan while serving responsive.
 */
export async function scanVault<P>(
  policy: VaultPathPolicy,
  parse: NoteParser<P>,
  previous: readonly SnapshotEntry<P>[],
  options: { clearDebris?: (temps: string[]) => void; prefetch?: NotePrefetch } = {},
): Promise<VaultScan<P>> {
  // The notes a start's reader thread has been reading, or looking up against the snapshot
  // (note-prefetch.ts), when they are of this vault and the snapshot is what the reader expected.
  let prefetch = options.prefetch;
  const mode: PrefetchMode = previous.length > 0 ? 'stat' : 'read';
  if (
    prefetch &&
    (prefetch.mode !== mode || !samePolicy(prefetch.policy, policy) || prefetch.chunkSize !== SCAN_CHUNK)
  ) {
    prefetch.dispose();
    prefetch = undefined;
  }
  const startedAt = prefetch?.startedAt ?? Date.now();
  const { notes: rels, folders, links, temps } = prefetch?.walk ?? sortedWalk(policy);
  options.clearDebris?.(temps);
  const notes: ScannedNote<P>[] = [];
  const unreadable: VaultScan<P>['unreadable'] = [];
  let reused = 0;
  let p = 0;
  // Walked paths are already clean: concatenation, not path.join's normalisation, per note.
  const prefix = policy.root.endsWith(path.sep) ? policy.root : `${policy.root}${path.sep}`;
  for (let i = 0; i < rels.length; i += SCAN_CHUNK) {
    const chunk = prefetch?.threaded ? await prefetch.chunk(i / SCAN_CHUNK) : undefined;
    if (i > 0 && !chunk) await new Promise((resolve) => setImmediate(resolve));
    try {
      readChunk(i, chunk);
    } finally {
      chunk?.release();
    }
  }
  prefetch?.dispose();
  return { notes, folders, links, unreadable, startedAt, reused };

  function readChunk(i: number, chunk: PrefetchedChunk | undefined): void {
    for (let k = 0; k < SCAN_CHUNK && i + k < rels.length; k++) {
      const rel = rels[i + k]!;
      const abs = prefix + rel;
      while (p < previous.length && previous[p]!.rel < rel) p++;
      const known = previous[p]?.rel === rel ? previous[p] : undefined;
      if (known && (chunk?.unchanged(k, known) ?? unchangedFile(abs, known))) {
        notes.push(known);
        reused++;
        continue;
      }
      let read;
      try {
        read = chunk?.read(k) ?? readNote(abs);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        // A note that vanished (or became a folder) since it was listed is simply not there.
        if (code !== 'ENOENT' && code !== 'EISDIR') unreadable.push({ path: rel, reason: String(err) });
        continue;
      }
      const note: ScannedNote<P> = { rel, hash: hashText(read.text), size: read.size, parsed: null };
      try {
        note.parsed = parse(rel, read.text);
      } catch (err) {
        note.broken = err instanceof Error ? err.message : String(err);
      }
      notes.push(note);
    }
  }
}

/**
 * The walk of a whole vault with its notes sorted (the default sort compares code units, as the
 * index's order does), so a snapshot is matched by merging two sorted lists and the index never
 * sorts a shuffled list. A start's reader thread is given this walk (note-prefetch.ts).
 */
export function sortedWalk(policy: VaultPathPolicy): VaultWalk {
  const walk = walkVault(policy);
  walk.notes.sort();
  return walk;
}

/**
 * Walks the vault for a start and starts reading its notes (`read`: a first start) or looking them
 * up (`stat`: a restart, to compare with the index snapshot) on a second thread (note-prefetch.ts),
 * in the chunks the scan takes them in. A vault too small to gain from a thread gets none; its
 * scan still takes the walk. (What changes between this walk and the watcher's start is caught up
 * with afterwards: VaultStore.)
 */
export function prefetchNotes(policy: VaultPathPolicy, mode: PrefetchMode): NotePrefetch {
  const startedAt = Date.now();
  const walk = sortedWalk(policy);
  return new NotePrefetch(policy, walk, SCAN_CHUNK, startedAt, mode, walk.notes.length >= PREFETCH_MIN_NOTES);
}

/** Whether the file at `abs` is a file with exactly the stamp of its snapshot entry. */
function unchangedFile(abs: string, stamp: FileStamp): boolean {
  const stat = statSync(abs, { throwIfNoEntry: false });
  return stat?.isFile() === true && sameStamp(stat, stamp);
}

const samePolicy = (a: VaultPathPolicy, b: VaultPathPolicy): boolean =>
  a.root === b.root && a.dataDir === b.dataDir;


/** Shared by every read of a scan: nearly every note fits, and the scan reads one note at a time. */
const readBuffer = Buffer.allocUnsafe(64 * 1024);

/**
 * A note's text, and its size in bytes as on disk. One open, one read into the shared buffer, one
 * close: a read of a regular file returns less than asked only at the end of the file, so a note
 * smaller than the buffer is whole after one read, where `readFileSync` reads once more to find
 * the end (on the bench vault: 10% less time reading). A larger note is read again, whole.
 */
function readNote(abs: string): { text: string; size: number } {
  const fd = openSync(abs, 'r');
  let size;
  try {
    size = readSync(fd, readBuffer, 0, readBuffer.length, 0);
  } finally {
    closeSync(fd);
  }
  if (size < readBuffer.length) return { text: readBuffer.toString('utf8', 0, size), size };
  const bytes = readFileSync(abs);
  return { text: bytes.toString('utf8'), size: bytes.length };
}

/** Hash of a note's text: tells an echo of our own write from a real change. */
export const hashText = (text: string): string => hash('sha1', text, 'base64');
