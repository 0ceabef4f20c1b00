/**
 * The note index persisted in the data dir, so that a restart re-reads and re-parses only the
 * notes that changed while the server was down. An entry is reused only when the note's mtime and
 * size are exactly those recorded, and only entries of notes that had not been modified for a
 * while before they were read are written (a note edited again within the file system's timestamp
 * granularity could otherwise keep its recorded mtime and size with new content). Any problem with
 * the file — missing, corrupt, another format version or parser key — means "no snapshot".
 */
import { readFileSync } from 'node:fs';
import { writeFileAtomic } from './atomic-write.js';

const FORMAT = 1;

export interface SnapshotEntry<P> {
  mtimeMs: number;
  size: number;
  hash: string;
  /** The parser's result; null for a note that is not indexed (e.g. not a task). */
  parsed: P | null;
}

type Row<P> = [rel: string, mtimeMs: number, size: number, hash: string, parsed: P | null];

export class IndexSnapshot<P> {
  constructor(private readonly file: string) {}

  /** Entries written for the same parser key, or an empty map. */
  load(key: string): Map<string, SnapshotEntry<P>> {
    const out = new Map<string, SnapshotEntry<P>>();
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(this.file, 'utf8'));
    } catch {
      return out;
    }
    const head = data as { format?: unknown; key?: unknown; rows?: unknown };
    if (head.format !== FORMAT || head.key !== key || !Array.isArray(head.rows)) return out;
    for (const row of head.rows as unknown[]) {
      if (!Array.isArray(row) || row.length !== 5) continue;
      const [rel, mtimeMs, size, hash, parsed] = row as Row<P>;
      if (typeof rel !== 'string' || typeof mtimeMs !== 'number' || typeof size !== 'number') continue;
      if (typeof hash !== 'string') continue;
      out.set(rel, { mtimeMs, size, hash, parsed });
    }
    return out;
  }

  /**
   * Writes the entries (atomically); parsed values that JSON cannot carry exactly are left out.
   * The file is assembled as bytes, a few hundred rows at a time: one string of the whole file
   * (megabytes for a large vault) would sit in V8's large-object space until the next full
   * collection.
   */
  async save(key: string, entries: ReadonlyMap<string, SnapshotEntry<P>>): Promise<void> {
    const chunks: Buffer[] = [Buffer.from(`{"format":${FORMAT},"key":${JSON.stringify(key)},"rows":[`)];
    let rows: string[] = [];
    const flush = (): void => {
      if (rows.length === 0) return;
      chunks.push(Buffer.from((chunks.length > 1 ? ',\n' : '') + rows.join(',\n')));
      rows = [];
    };
    for (const [rel, e] of entries) {
      let lossless = true;
      // NaN, ±Infinity and -0 (YAML `.nan`, `.inf`, `-0`) would come back as null or 0.
      const text = JSON.stringify([rel, e.mtimeMs, e.size, e.hash, e.parsed], (_k, v: unknown) => {
        if (typeof v === 'number' && (!Number.isFinite(v) || Object.is(v, -0))) lossless = false;
        return v;
      });
      if (lossless) rows.push(text);
      if (rows.length >= ROWS_PER_CHUNK) flush();
    }
    flush();
    chunks.push(Buffer.from(']}\n'));
    await writeFileAtomic(this.file, Buffer.concat(chunks), { mkdir: true });
  }
}

/** Rows serialised per chunk of the snapshot file. */
const ROWS_PER_CHUNK = 256;
