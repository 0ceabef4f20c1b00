/**
 * The notes of a start, walked and read (or, for a restart, looked up) on a second thread while
 * the main thread is still loading the server. Walking and reading 10,000 notes is mostly system
 * calls (readdir, open, read, close: about three quarters of the scan on the bench vault), and so
 * is checking them against the index snapshot (one stat each); loading the server bundle and the
 * snapshot is pure JavaScript. Started before the bundle loads (src/cli/main.ts), the reader has
 * most of it done by the time the scan wants it. Measured figures are in docs/performance.md.
 *
 * The reader thread (note-reader-thread.ts) decides nothing: it walks the vault as the scan would
 * (vault-walk.ts), sends the walk, and opens or stats exactly the walked notes in the scan's
 * order. In `read` mode (a first start) it reads them in chunks of the scan's size into a ring of
 * SLOTS shared buffers of SLOT_BYTES each, allocated once: a chunk waits for a free slot, so the
 * reader is never more than SLOTS chunks ahead and its memory is fixed (4 MB) whatever the
 * vault's size. A note that does not fit in what is left of its slot is read by the scan itself.
 * In `stat` mode (a restart) it sends each chunk's size, modification and status-change times and
 * inode (32 bytes a note); a scan that gets to a chunk not looked up yet has nothing else to do (it
 * has loaded the snapshot), so it takes the chunks the reader has not reached over itself, from
 * the last one back (note-stat-chunk.ts). When the thread fails, the scan walks, reads or looks up
 * whatever it did not get itself.
 */
import { Worker } from 'node:worker_threads';
import { THREAD_START, threadModule } from '../threads/thread-program.js';
import { sameStamp, type FileStamp } from './index-snapshot.js';
import {
  ASK_AGAIN,
  FILE,
  FREE,
  type ChunkMessage,
  type PrefetchMode,
  type ReaderData,
  type ReaderMessage,
} from './note-reader-protocol.js';
import { rootPrefix, type VaultPathPolicy } from './paths.js';
import { CLAIMED_BY_SCAN, claimChunk, statChunk } from './note-stat-chunk.js';
import type { VaultWalk } from './vault-walk.js';

export type { PrefetchMode } from './note-reader-protocol.js';

/** Chunks the reader may be ahead of the scan, and the bytes each may hold. */
const SLOTS = 4;
const SLOT_BYTES = 1024 * 1024;

/** The reader's module (thread-program.ts). */
const READER_MODULE = threadModule('note-reader-thread', import.meta.url);

/** One chunk of notes as the reader read or looked them up, held until released. */
export class PrefetchedChunk {
  private readonly left: Set<number> | undefined;
  private readonly errors: Map<number, { code: string | undefined; message: string }> | undefined;

  constructor(
    /** The chunk's slot of the ring (read mode). */
    private readonly slot: Buffer | undefined,
    private readonly message: ChunkMessage,
    private readonly onRelease: () => void,
  ) {
    if (message.kind === 'read') {
      this.left = new Set(message.left);
      this.errors = new Map(message.errors.map(({ index, ...error }) => [index, error]));
    }
  }

  /**
   * Note `k` of the chunk as `readNote` would have read it (throwing what opening or reading it
   * threw); undefined for a note the reader did not read (left to the scan, or a stat chunk).
   */
  read(k: number): { text: string; size: number } | undefined {
    const { message, slot } = this;
    if (message.kind !== 'read' || !slot) return undefined;
    const error = this.errors?.get(k);
    if (error) throw Object.assign(new Error(error.message), { code: error.code });
    if (this.left?.has(k)) return undefined;
    const start = k === 0 ? 0 : message.ends[k - 1]!;
    const end = message.ends[k]!;
    return { text: slot.toString('utf8', start, end), size: end - start };
  }

  /**
   * Whether note `k` is a file with exactly the stamp of its snapshot entry (index-snapshot.ts);
   * undefined when the reader did not look it up (a read chunk, or a stat that failed otherwise
   * than by a missing file: the scan asks again itself).
   */
  unchanged(k: number, stamp: FileStamp): boolean | undefined {
    const { message } = this;
    if (message.kind !== 'stat') return undefined;
    const kind = message.kinds[k];
    if (kind === ASK_AGAIN) return undefined;
    if (kind !== FILE) return false;
    const at = k * 4;
    const { stamps } = message;
    return sameStamp({ size: stamps[at]!, mtimeMs: stamps[at + 1]!, ctimeMs: stamps[at + 2]!, ino: stamps[at + 3]! }, stamp);
  }

  /** Gives the slot back to the reader: the chunk's texts were decoded (copied) by now. */
  release(): void {
    this.onRelease();
  }
}

export class NotePrefetch {
  /** When the walk began: every note the reader read was read after this (epoch ms). */
  readonly startedAt: number;
  /** Whether a reader thread walks and reads (or looks up) the notes (else the scan does it all). */
  readonly threaded: boolean;
  private readonly worker: Worker | undefined;
  private ring: SharedArrayBuffer | undefined;
  private readonly state = new Int32Array(new SharedArrayBuffer(4 * SLOTS));
  /** The walk, once sent (undefined: the reader ended without one); see walk(). */
  private readonly walked: Promise<VaultWalk | undefined>;
  private walkArrived: ((walk: VaultWalk | undefined) => void) | undefined;
  private readonly received = new Map<number, ChunkMessage>();
  /** The scan waiting for the walk or a chunk. */
  private waiting: { index: number; resolve: (chunk: PrefetchedChunk | undefined) => void } | undefined;
  private ended = false;
  private disposed = false;
  /** Callers waiting for the walk or a chunk (see keepAliveUntil). */
  private waits = 0;
  /** `stat` mode: the walked notes and who looks up each chunk, once the walk arrived. */
  private lookups: { notes: string[]; claims: Int32Array } | undefined;
  private chunksTakenOver = 0;

  /**
   * Starts walking the vault of `policy` and reading (or, in `stat` mode, looking up) its notes in
   * chunks of `chunkSize` notes on the reader thread; given the `walk` already made (a vault too
   * small to gain from a thread), only holds it for the scan.
   */
  constructor(
    readonly policy: VaultPathPolicy,
    readonly chunkSize: number,
    startedAt: number,
    readonly mode: PrefetchMode = 'read',
    walk?: VaultWalk,
  ) {
    this.startedAt = startedAt;
    this.threaded = walk === undefined;
    if (walk) {
      this.walked = Promise.resolve(walk);
      this.worker = undefined;
      this.ended = true;
      return;
    }
    this.walked = new Promise((resolve) => (this.walkArrived = resolve));
    this.ring = mode === 'read' ? new SharedArrayBuffer(SLOTS * SLOT_BYTES) : undefined;
    const workerData: ReaderData & { module: string } = {
      module: READER_MODULE,
      mode,
      root: policy.root,
      dataDir: policy.dataDir,
      chunkSize,
      ring: this.ring,
      state: this.state,
      slots: SLOTS,
      slotBytes: SLOT_BYTES,
    };
    this.worker = new Worker(THREAD_START, {
      eval: true,
      workerData,
      // The reader keeps little: the walk's paths, one chunk's buffers. Its young generation is
      // kept small (a larger one would stay resident while the thread runs); the old one is not
      // capped (the walk of a vault of any size must fit).
      resourceLimits: { maxYoungGenerationSizeMb: 2 },
      stdout: true,
      stderr: true,
    });
    this.worker.on('message', (message: ReaderMessage) => this.arrived(message));
    this.worker.on('error', () => this.end());
    this.worker.on('exit', () => this.end());
    // The reader keeps the process alive only while the scan waits for it (see chunk): a server
    // that fails to start before its scan exits without waiting for the reader.
    this.worker.unref();
  }

  /** Chunks this thread looked up itself, taken over from the reader (see takeOver). */
  get takenOver(): number {
    return this.chunksTakenOver;
  }

  /**
   * The walk (notes sorted in the scan's order), once made; undefined when the reader ended
   * without it or failed to walk (the scan then walks itself, and meets the problem there).
   */
  walk(): Promise<VaultWalk | undefined> {
    if (this.walkArrived) this.keepAliveUntil(this.walked);
    return this.walked;
  }

  /**
   * The chunk with this index, once read; undefined when the reader ended without it (the scan
   * then reads the chunk's notes itself). Chunks are taken in order, each once, and each must be
   * released before the reader can reuse its slot.
   */
  chunk(index: number): Promise<PrefetchedChunk | undefined> {
    if (!this.received.has(index) && !this.ended) this.takeOver();
    const ready = this.received.get(index);
    if (ready) return Promise.resolve(this.take(ready));
    if (this.ended) return Promise.resolve(undefined);
    const chunk = new Promise<PrefetchedChunk | undefined>((resolve) => (this.waiting = { index, resolve }));
    this.keepAliveUntil(chunk);
    return chunk;
  }

  /**
   * Looks up, on this thread, the chunks the reader has not claimed yet, from the last one back
   * until it meets the reader (`stat` mode; once, as it leaves none unclaimed). It runs when the
   * scan would otherwise wait for the reader: a restart of the 100,000-task bench vault had loaded
   * its snapshot about 0.3 s before the reader had looked up every note.
   */
  private takeOver(): void {
    const lookups = this.lookups;
    if (!lookups) return;
    this.lookups = undefined;
    const { notes, claims } = lookups;
    const prefix = rootPrefix(this.policy.root);
    for (let index = claims.length - 1; index >= 0 && claimChunk(claims, index, CLAIMED_BY_SCAN); index--) {
      const first = index * this.chunkSize;
      const count = Math.min(this.chunkSize, notes.length - first);
      this.received.set(index, { kind: 'stat', index, ...statChunk(notes, prefix, first, count) });
      this.chunksTakenOver++;
    }
  }

  /**
   * Keeps the process alive until `settled` settles: waiting on an unreferenced thread, a process
   * with nothing else to do would end, and would not even learn that the thread failed.
   */
  private keepAliveUntil(settled: Promise<unknown>): void {
    if (this.waits++ === 0) this.worker?.ref();
    void settled.then(() => {
      if (--this.waits === 0) this.worker?.unref();
    });
  }

  /** Stops the reader (a scan that does not want its chunks, or is done) and frees its buffers. */
  dispose(): void {
    this.disposed = true;
    this.end();
    this.lookups = undefined;
    this.received.clear();
    this.ring = undefined;
    void this.worker?.terminate();
  }

  private arrived(message: ReaderMessage): void {
    // A message posted before the thread was stopped may still arrive: nobody wants it now.
    if (this.disposed) return;
    const waiting = this.waiting;
    if (message.kind === 'walk') {
      if ('failed' in message) {
        this.end();
        return;
      }
      const { folders, links, temps, unlisted, claims } = message;
      const notes = message.notes === '' ? [] : message.notes.split('\0');
      if (claims) this.lookups = { notes, claims };
      this.walkArrived?.({ notes, folders, links, temps, unlisted });
      this.walkArrived = undefined;
    } else if (waiting?.index === message.index) {
      this.waiting = undefined;
      waiting.resolve(this.take(message));
    } else {
      this.received.set(message.index, message);
    }
  }

  private take(message: ChunkMessage): PrefetchedChunk {
    this.received.delete(message.index);
    const { ring } = this;
    if (!ring) return new PrefetchedChunk(undefined, message, () => {});
    const slot = message.index % SLOTS;
    return new PrefetchedChunk(Buffer.from(ring, slot * SLOT_BYTES, SLOT_BYTES), message, () => {
      Atomics.store(this.state, slot, FREE);
      Atomics.notify(this.state, slot);
    });
  }

  /** The reader ended: chunks not received by now will not come. */
  private end(): void {
    if (this.ended) return;
    this.ended = true;
    this.walkArrived?.(undefined);
    this.walkArrived = undefined;
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.resolve(undefined);
  }
}
