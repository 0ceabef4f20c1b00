/**
 * The notes of a start, read (or, for a restart, looked up) on a second thread while the main
 * thread is still loading the server. Reading 10,000 notes is mostly system calls (open, read,
 * close: about three quarters of the scan on the bench vault), and so is checking them against the
 * index snapshot (one stat each); loading the server bundle is pure JavaScript. Started before the
 * bundle loads (src/cli/main.ts), the reader has most of it done by the time the scan wants it.
 * Measured figures are in docs/performance.md.
 *
 * The reader thread walks nothing and decides nothing: it is given the walk's note paths (in the
 * scan's order) and opens or stats exactly those, as the scan itself would (vault-scan.ts). In
 * `read` mode (a first start) it reads them in chunks of the scan's size into a ring of SLOTS
 * shared buffers of SLOT_BYTES each, allocated once: a chunk waits for a free slot, so the reader
 * is never more than SLOTS chunks ahead and its memory is fixed (4 MB) whatever the vault's size.
 * A note that does not fit in what is left of its slot is read by the scan itself. In `stat` mode
 * (a restart) it sends each chunk's size, modification and status-change times and inode (32
 * bytes a note). Every note after the thread failed is read or looked up by the scan itself.
 *
 * A vault too small to gain from a thread gets none (`thread: false`): the walk is still handed
 * to the scan, which then reads every note itself instead of walking the vault a second time.
 */
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { sameStamp, type FileStamp } from './index-snapshot.js';
import type { VaultPathPolicy } from './paths.js';
import type { VaultWalk } from './vault-scan.js';

/** Chunks the reader may be ahead of the scan, and the bytes each may hold. */
const SLOTS = 4;
const SLOT_BYTES = 1024 * 1024;

/** A slot's state in the shared state array. */
const FREE = 0;
const FILLED = 1;

/** What the reader does with the notes: read them (first start) or stat them (restart). */
export type PrefetchMode = 'read' | 'stat';

/** What a `stat` chunk says of a note. */
const MISSING = 0;
const FILE = 1;
const NOT_A_FILE = 2;
/** The stat failed otherwise: the scan asks again itself (and meets the error as it would). */
const ASK_AGAIN = 3;

type ChunkMessage = ReadMessage | StatMessage;

interface ReadMessage {
  index: number;
  /** End offset in the slot of each note of the chunk (a note not read there adds nothing). */
  ends: Int32Array;
  /** Indexes (in the chunk) of the notes left to the scan: larger than what was left of the slot. */
  left: number[];
  /** Why a note of the chunk (by its index in the chunk) could not be read. */
  errors: Array<{ index: number; code: string | undefined; message: string }>;
}

interface StatMessage {
  index: number;
  /** Per note: MISSING, FILE, NOT_A_FILE or ASK_AGAIN. */
  kinds: Uint8Array;
  /** Per note: size, modification time, status-change time, inode. */
  stamps: Float64Array;
}

/** The reader thread's program (run with `eval`: the bundle has no separate worker file). */
const READER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { closeSync, openSync, readSync } = require('node:fs');
const { mode, paths, count: total, chunkSize, ring, state, slots, slotBytes } = workerData;
// The paths arrive as bytes, NUL after each: opened as they are, without a string each.
let pathStart = 0;
const nextPath = () => {
  const end = paths.indexOf(0, pathStart);
  const path = paths.subarray(pathStart, end);
  pathStart = end + 1;
  return path;
};
if (mode === 'stat') {
  const { statSync } = require('node:fs');
  for (let index = 0, first = 0; first < total; index++, first += chunkSize) {
    const count = Math.min(chunkSize, total - first);
    const kinds = new Uint8Array(count);
    const stamps = new Float64Array(count * 4);
    for (let i = 0; i < count; i++) {
      const path = nextPath();
      try {
        const stat = statSync(path, { throwIfNoEntry: false });
        if (stat === undefined) {
          kinds[i] = ${MISSING};
          continue;
        }
        kinds[i] = stat.isFile() ? ${FILE} : ${NOT_A_FILE};
        stamps.set([stat.size, stat.mtimeMs, stat.ctimeMs, stat.ino], i * 4);
      } catch {
        kinds[i] = ${ASK_AGAIN};
      }
    }
    parentPort.postMessage({ index, kinds, stamps }, [kinds.buffer, stamps.buffer]);
  }
}
const bytes = mode === 'read' ? new Uint8Array(ring) : undefined;
for (let index = 0, first = 0; bytes && first < total; index++, first += chunkSize) {
  const slot = index % slots;
  Atomics.wait(state, slot, ${FILLED});
  const base = slot * slotBytes;
  const count = Math.min(chunkSize, total - first);
  const ends = new Int32Array(count);
  const left = [];
  const errors = [];
  let used = 0;
  for (let i = 0; i < count; i++) {
    let fd;
    try {
      const path = nextPath();
      fd = openSync(path, 'r');
      const room = slotBytes - used;
      // A read of a regular file returns less than asked only at its end (as in readNote).
      const n = room > 0 ? readSync(fd, bytes, base + used, room, 0) : room;
      if (n < room) used += n;
      else left.push(i);
    } catch (err) {
      errors.push({ index: i, code: err.code, message: err.message });
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
    ends[i] = used;
  }
  Atomics.store(state, slot, ${FILLED});
  parentPort.postMessage({ index, ends, left, errors }, [ends.buffer]);
}
`;

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
    if ('ends' in message) {
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
    if (!('ends' in message) || !slot) return undefined;
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
    if (!('kinds' in message)) return undefined;
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
  /** Whether a reader thread reads or looks up the notes (else the scan does it all). */
  readonly threaded: boolean;
  private readonly worker: Worker | undefined;
  private ring: SharedArrayBuffer | undefined;
  private readonly state = new Int32Array(new SharedArrayBuffer(4 * SLOTS));
  private readonly received = new Map<number, ChunkMessage>();
  private waiting: { index: number; resolve: (chunk: PrefetchedChunk | undefined) => void } | undefined;
  private ended = false;
  private disposed = false;

  /**
   * Starts reading (or, in `stat` mode, looking up) the walked notes (`walk.notes`, sorted in the
   * scan's order) of the vault of `policy`, in chunks of `chunkSize` notes; with `thread` false,
   * only holds the walk for the scan.
   */
  constructor(
    readonly policy: VaultPathPolicy,
    readonly walk: VaultWalk,
    readonly chunkSize: number,
    startedAt: number,
    readonly mode: PrefetchMode = 'read',
    thread = true,
  ) {
    this.startedAt = startedAt;
    this.threaded = thread;
    if (!thread) {
      this.worker = undefined;
      this.ended = true;
      return;
    }
    this.ring = mode === 'read' ? new SharedArrayBuffer(SLOTS * SLOT_BYTES) : undefined;
    const prefix = policy.root.endsWith(path.sep) ? policy.root : `${policy.root}${path.sep}`;
    // One buffer of paths rather than an array of strings: at 100,000 notes the strings alone
    // were more than the reader's small heap holds.
    const paths = new TextEncoder().encode(walk.notes.map((rel) => `${prefix + rel}\0`).join(''));
    this.worker = new Worker(READER_SOURCE, {
      eval: true,
      workerData: {
        mode,
        paths,
        count: walk.notes.length,
        chunkSize,
        ring: this.ring,
        state: this.state,
        slots: SLOTS,
        slotBytes: SLOT_BYTES,
      },
      // The reader needs no more than a small heap; its stdout and stderr are never used.
      resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 16 },
      stdout: true,
      stderr: true,
      transferList: [paths.buffer],
    });
    this.worker.on('message', (message: ChunkMessage) => this.arrived(message));
    this.worker.on('error', () => this.end());
    this.worker.on('exit', () => this.end());
    // The reader keeps the process alive only while the scan waits for it (see chunk): a server
    // that fails to start before its scan exits without waiting for the reader.
    this.worker.unref();
  }

  /**
   * The chunk with this index, once read; undefined when the reader ended without it (the scan
   * then reads the chunk's notes itself). Chunks are taken in order, each once, and each must be
   * released before the reader can reuse its slot.
   */
  chunk(index: number): Promise<PrefetchedChunk | undefined> {
    const ready = this.received.get(index);
    if (ready) return Promise.resolve(this.take(ready));
    if (this.ended) return Promise.resolve(undefined);
    // Waiting on an unreferenced thread, a process with nothing else to do would end here, and
    // would not even learn that the thread failed. (Not ended means there is a thread.)
    this.worker?.ref();
    return new Promise((resolve) => {
      this.waiting = {
        index,
        resolve: (chunk) => {
          this.worker?.unref();
          resolve(chunk);
        },
      };
    });
  }

  /** Stops the reader (a scan that does not want its chunks, or is done) and frees its buffers. */
  dispose(): void {
    this.disposed = true;
    this.end();
    this.received.clear();
    this.ring = undefined;
    void this.worker?.terminate();
  }

  private arrived(message: ChunkMessage): void {
    // A chunk posted before the thread was stopped may still arrive: nobody wants it now.
    if (this.disposed) return;
    const waiting = this.waiting;
    if (waiting?.index === message.index) {
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
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.resolve(undefined);
  }
}
