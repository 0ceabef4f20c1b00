/**
 * The note index persisted in the data dir, so that a restart neither reads nor parses the notes
 * that did not change while the server was down: it only looks at their file metadata.
 *
 * An entry is reused only when the note's file still has exactly the recorded size, modification
 * time, status-change time (ctime) and inode number. The ctime is what makes that safe against
 * programs that restore a modification time (`touch -r`, `cp -p`, `rsync -t`, archive tools):
 * every write or replacement of a file sets its ctime to the current time, and no program can set
 * it back; a file replaced by another one (an atomic save) has another inode. Only entries of notes
 * that had not been modified for a while before they were read are written (a note edited again
 * within the file system's timestamp granularity could otherwise keep its recorded times and size
 * with new content). Any problem with the file — missing, corrupt, another format version or
 * parser key — means "no snapshot".
 *
 * The file is one JSON document written one row per line, so that it can be read line by line
 * (see readLines):
 *
 *     {"format":3,"key":"…","rows":[
 *     ["Notes/A.md",812,1732000000000.123,1732000000000.123,4711,"<sha1>",{…}],
 *     …
 *     ]}
 */
import { isAscii } from 'node:buffer';
import { closeSync, openSync, readSync } from 'node:fs';
import { writeFileAtomic } from './atomic-write.js';

/** The snapshot's file name in the data dir. */
export const INDEX_SNAPSHOT_FILE = 'index-snapshot.json';

const FORMAT = 3;

/** What a note's file looked like when it was read (see `stampOf`). */
export interface FileStamp {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
}

export interface SnapshotEntry<P> extends FileStamp {
  rel: string;
  hash: string;
  /** The parser's result; null for a note that is not indexed (e.g. not a task). */
  parsed: P | null;
}

type Row<P> = [rel: string, size: number, mtimeMs: number, ctimeMs: number, ino: number, hash: string, parsed: P | null];

/** The stamp of a file's stats, as a snapshot entry records it. */
export function stampOf(stat: FileStamp): FileStamp {
  return { size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, ino: stat.ino };
}

/** True when a file's current stats are those of the stamp. */
export function sameStamp(stat: FileStamp, stamp: FileStamp): boolean {
  return (
    stat.mtimeMs === stamp.mtimeMs &&
    stat.size === stamp.size &&
    stat.ctimeMs === stamp.ctimeMs &&
    stat.ino === stamp.ino
  );
}

const byRel = (a: { rel: string }, b: { rel: string }): number => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0);

export class IndexSnapshot<P> {
  constructor(private readonly file: string) {}

  /**
   * Entries written for the same parser key, sorted by path (the order they are saved in), or
   * none. The entries are the objects the caller keeps: one object per note from its line.
   */
  load(key: string): SnapshotEntry<P>[] {
    const out: SnapshotEntry<P>[] = [];
    let sorted = true;
    const lines = readLines(this.file);
    try {
      const head = JSON.parse(`${lines.next().value ?? ''}]}`) as { format?: unknown; key?: unknown };
      if (head.format !== FORMAT || head.key !== key) return [];
      let ended = false;
      for (const line of lines) {
        if (line === ']}') {
          ended = true;
          break;
        }
        if (line === '') continue;
        const row = JSON.parse(line.endsWith(',') ? line.slice(0, -1) : line) as unknown;
        if (!Array.isArray(row) || row.length !== 7) continue;
        const [rel, size, mtimeMs, ctimeMs, ino, hash, parsed] = row as Row<P>;
        if (typeof rel !== 'string' || typeof hash !== 'string') continue;
        if (typeof size !== 'number' || typeof mtimeMs !== 'number') continue;
        if (typeof ctimeMs !== 'number' || typeof ino !== 'number') continue;
        if (out.length > 0 && out[out.length - 1]!.rel >= rel) sorted = false;
        out.push({ rel, size, mtimeMs, ctimeMs, ino, hash, parsed });
      }
      // A file cut short (not written by save, which replaces it whole) is no snapshot.
      if (!ended) return [];
    } catch {
      return [];
    } finally {
      // Closes the file when the reading stopped early (another key, a corrupt line).
      lines.return(undefined);
    }
    // Saved sorted; a file edited by hand may not be (or may repeat a path: the last one wins).
    return sorted ? out : dedupe(out.sort(byRel));
  }

  /**
   * Writes the entries (atomically) in path order; parsed values that JSON cannot carry exactly
   * are left out. The file is written in parts of some dozens of rows, with a turn of the event loop
   * in between: serialising 100,000 rows in one go would keep requests waiting for half a second,
   * and assembling the whole file first (tens of megabytes for a large vault, twice over as parts
   * and their concatenation) left that much memory resident until V8's next full collection,
   * which an idle server may not run for hours (measured at 100,000 notes: 94 MB of RSS).
   */
  async save(key: string, entries: readonly SnapshotEntry<P>[]): Promise<void> {
    const rows = [...entries].sort(byRel);
    await writeFileAtomic(this.file, serialise(key, rows), { mkdir: true });
  }
}

/**
 * The snapshot file's text, in parts of at most about PART_CHARS characters: each part is written
 * (an asynchronous write, so requests are served in between) before the next is made. Parts stay
 * below V8's large-object size (about 128 KB), so they die young: larger strings are allocated in
 * the old generation and stay resident until a full collection (measured at 10,000 notes, Node 20:
 * parts of 500 rows, about 250 KB, left the heap 15 MB larger after the snapshot).
 */
async function* serialise<P>(key: string, rows: readonly SnapshotEntry<P>[]): AsyncGenerator<string> {
  // The layout load reads: the head, one row per line, the end.
  yield `{"format":${FORMAT},"key":${ascii(JSON.stringify(key))},"rows":[\n`;
  let lossless = true;
  // NaN, ±Infinity and -0 (YAML `.nan`, `.inf`, `-0`) would come back as null or 0.
  const check = (_k: string, v: unknown): unknown => {
    if (typeof v === 'number' && (!Number.isFinite(v) || Object.is(v, -0))) lossless = false;
    return v;
  };
  let part: string[] = [];
  let length = 0;
  let first = true;
  for (const e of rows) {
    lossless = true;
    const text = ascii(JSON.stringify([e.rel, e.size, e.mtimeMs, e.ctimeMs, e.ino, e.hash, e.parsed], check));
    if (!lossless) continue;
    part.push(text);
    length += text.length;
    if (length >= PART_CHARS) {
      yield (first ? '' : ',\n') + part.join(',\n');
      first = false;
      part = [];
      length = 0;
    }
  }
  if (part.length > 0) yield (first ? '' : ',\n') + part.join(',\n');
  yield '\n]}\n';
}

/** A sorted list with each path once (the last entry of a path wins). */
function dedupe<T extends { rel: string }>(sorted: T[]): T[] {
  return sorted.filter((e, i) => sorted[i + 1]?.rel !== e.rel);
}

/**
 * The snapshot file's lines, read in parts into one buffer. One string of the whole file would be
 * allocated, like the bytes it is decoded from, in memory the process has not touched yet, and on
 * the development machine every new page costs about 12 µs: the 50 MB snapshot of 100,000 notes
 * took 0.6 s more to load read whole than read by line (and held 80 MB more RSS), the 5 MB one of
 * 10,000 notes 20 ms (docs/performance.md). A line of ASCII (as save writes it) is read as Latin-1,
 * which copies bytes into a one-byte string; Node 20 decodes UTF-8 far slower. Other lines (a file
 * edited by hand) are read as UTF-8.
 */
function* readLines(file: string): Generator<string> {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.allocUnsafeSlow(READ_BYTES);
    /** The start of a line that continues past the bytes read so far. */
    let pending: Buffer[] = [];
    for (let n; (n = readSync(fd, buffer, 0, READ_BYTES, null)) > 0; ) {
      const ascii = isAscii(buffer.subarray(0, n));
      let start = 0;
      for (let end; (end = buffer.indexOf(NEWLINE, start)) !== -1 && end < n; start = end + 1) {
        if (pending.length > 0) {
          yield decode(Buffer.concat([...pending, buffer.subarray(start, end)]));
          pending = [];
        } else {
          yield buffer.toString(ascii ? 'latin1' : 'utf8', start, end);
        }
      }
      if (start < n) pending.push(Buffer.from(buffer.subarray(start, n)));
    }
    if (pending.length > 0) yield decode(Buffer.concat(pending));
  } finally {
    closeSync(fd);
  }
}

const decode = (bytes: Buffer): string => bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');

/** Bytes read at a time (see readLines); a row is a few hundred bytes. */
const READ_BYTES = 256 * 1024;
const NEWLINE = 0x0a;

/** JSON text with every character outside ASCII as JSON's escape of each UTF-16 unit (see load). */
function ascii(json: string): string {
  return NOT_ASCII.test(json) ? json.replace(NOT_ASCII_ALL, escapeUnit) : json;
}

const NOT_ASCII = /[\u0080-\uffff]/;
const NOT_ASCII_ALL = /[\u0080-\uffff]/g;
const escapeUnit = (unit: string): string => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** Characters per part of the snapshot file as it is written (see serialise). */
const PART_CHARS = 32 * 1024;
