/**
 * What a start's reader thread (note-reader-thread.ts) and the main thread's side of it
 * (note-prefetch.ts) say to each other; the protocol itself is described in note-prefetch.ts.
 */

/** What the reader does with the notes: read them (first start) or stat them (restart). */
export type PrefetchMode = 'read' | 'stat';

/** What the reader is started with. */
export interface ReaderData {
  mode: PrefetchMode;
  root: string;
  dataDir: string;
  /** Notes per chunk: the scan's unit. */
  chunkSize: number;
  /** `read` mode: the ring of `slots` slots of `slotBytes` bytes the notes are read into. */
  ring: SharedArrayBuffer | undefined;
  /** One FREE or FILLED per slot. */
  state: Int32Array;
  slots: number;
  slotBytes: number;
}

/** A slot's state in the shared state array. */
export const FREE = 0;
export const FILLED = 1;

/** What a `stat` chunk says of a note. */
export const MISSING = 0;
export const FILE = 1;
export const NOT_A_FILE = 2;
/** The stat failed otherwise: the scan asks again itself (and meets the error as it would). */
export const ASK_AGAIN = 3;

/**
 * The walk, sent before any chunk: the notes as one string, NUL after each but the last (a file
 * name cannot hold NUL, and no note's path is empty, so `''` is no note at all), which crosses to
 * the main thread as one copy instead of one string per note. `failed`: the walk threw; the scan
 * walks again itself and meets the problem there.
 */
export type WalkMessage =
  | {
      kind: 'walk';
      notes: string;
      folders: string[];
      links: string[];
      temps: string[];
      unlisted: string[];
      /** `stat` mode: one entry per chunk, who looks it up (note-stat-chunk.ts). */
      claims?: Int32Array;
    }
  | { kind: 'walk'; failed: true };

export interface ReadMessage {
  kind: 'read';
  index: number;
  /** End offset in the slot of each note of the chunk (a note not read there adds nothing). */
  ends: Int32Array;
  /** Indexes (in the chunk) of the notes left to the scan: larger than what was left of the slot. */
  left: number[];
  /** Why a note of the chunk (by its index in the chunk) could not be read. */
  errors: Array<{ index: number; code: string | undefined; message: string }>;
}

export interface StatMessage {
  kind: 'stat';
  index: number;
  /** Per note: MISSING, FILE, NOT_A_FILE or ASK_AGAIN. */
  kinds: Uint8Array;
  /** Per note: size, modification time, status-change time, inode. */
  stamps: Float64Array;
}

export type ChunkMessage = ReadMessage | StatMessage;
export type ReaderMessage = WalkMessage | ChunkMessage;
