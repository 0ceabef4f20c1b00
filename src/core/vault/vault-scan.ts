/**
 * The scan that reads and parses a vault's candidate notes (the walk that finds them:
 * vault-walk.ts), reusing what the index snapshot holds of unchanged notes.
 */
import { hash } from 'node:crypto';
import { statSync } from 'node:fs';
import { sameStamp, type FileStamp, type SnapshotEntry } from './index-snapshot.js';
import { NotePrefetch, type PrefetchedChunk, type PrefetchMode } from './note-prefetch.js';
import { isGoneError, readNote } from './note-read.js';
import { rootPrefix, type VaultPathPolicy } from './paths.js';
import { isMisnamed, NOT_UTF8_NAME, sortedWalk, walkVault } from './vault-walk.js';

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
  /** Folders that could not be listed (see VaultWalk). */
  unlisted: string[];
  /** When the scan began (epoch ms): every note it read was read after this. */
  startedAt: number;
  /** How many notes were taken from the snapshot unchanged (not read). */
  reused: number;
}

/** Notes read and parsed between two yields to the event loop (~10-20 ms of work). */
const SCAN_CHUNK = 500;

/**
 * Reads and parses every candidate note, reusing the `previous` entries (an index snapshot, in
 * path order) whose file is unchanged by its metadata (index-snapshot.ts): those notes are not
 * read. It only reads: the store adopts the result (and logs its problems).
 *
 * Notes are read synchronously (note-read.ts says why), without an fstat per note (another 10%
 * of the scan's CPU). Yielding between chunks keeps a rescan while serving responsive.
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
  const { notes: rels, folders, links, temps, unlisted } = (await prefetch?.walk()) ?? sortedWalk(policy);
  options.clearDebris?.(temps);
  const notes: ScannedNote<P>[] = [];
  const unreadable: VaultScan<P>['unreadable'] = [];
  let reused = 0;
  let p = 0;
  const prefix = rootPrefix(policy.root);
  for (let i = 0; i < rels.length; i += SCAN_CHUNK) {
    const chunk = await prefetch?.chunk(i / SCAN_CHUNK);
    if (i > 0 && !chunk) await new Promise((resolve) => setImmediate(resolve));
    try {
      readChunk(i, chunk);
    } finally {
      chunk?.release();
    }
  }
  prefetch?.dispose();
  return { notes, folders, links, unreadable, unlisted, startedAt, reused };

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
        // A note that vanished (or became a folder) since it was listed is simply not there, unless
        // its name only looked gone: see NOT_UTF8_NAME.
        if (!isGoneError(err)) unreadable.push({ path: rel, reason: String(err) });
        else if (isMisnamed(rel)) unreadable.push({ path: rel, reason: NOT_UTF8_NAME });
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
 * Below this many notes a start walks and reads (or looks up) its notes itself: the reader
 * thread's start costs about 70 ms of CPU and 20 ms to the first answer (a demo vault of five
 * notes, Node 20.20), more than reading some 2,000 notes takes.
 */
const PREFETCH_MIN_NOTES = 2_000;

/**
 * Starts walking the vault for a start and reading its notes (`read`: a first start) or looking
 * them up (`stat`: a restart, to compare with the index snapshot) on a second thread
 * (note-prefetch.ts), in the chunks the scan takes them in. A walk that finds no more than
 * PREFETCH_MIN_NOTES notes is made here and handed to the scan, without a thread; a larger vault
 * is walked again on the thread, from the start. (What changes between this walk and the
 * watcher's start is caught up with afterwards: VaultStore.)
 */
export function prefetchNotes(policy: VaultPathPolicy, mode: PrefetchMode): NotePrefetch {
  const startedAt = Date.now();
  const small = walkVault(policy, '', PREFETCH_MIN_NOTES);
  small?.notes.sort();
  return new NotePrefetch(policy, SCAN_CHUNK, startedAt, mode, small);
}

/** Whether the file at `abs` is a file with exactly the stamp of its snapshot entry. */
function unchangedFile(abs: string, stamp: FileStamp): boolean {
  const stat = statSync(abs, { throwIfNoEntry: false });
  return stat?.isFile() === true && sameStamp(stat, stamp);
}

const samePolicy = (a: VaultPathPolicy, b: VaultPathPolicy): boolean =>
  a.root === b.root && a.dataDir === b.dataDir;

/** Hash of a note's text: tells an echo of our own write from a real change. */
export const hashText = (text: string): string => hash('sha1', text, 'base64');
