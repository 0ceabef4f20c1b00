/**
 * The reader thread's program (started by note-prefetch.ts, which describes what it does and
 * why): walks the vault as the scan would (vault-walk.ts), sends the walk, then reads or looks up
 * the walked notes chunk by chunk, exactly the files the scan would open or stat.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { FILLED, type ReaderData, type ReaderMessage } from './note-reader-protocol.js';
import { rootPrefix } from './paths.js';
import { CLAIMED_BY_READER, claimChunk, statChunk } from './note-stat-chunk.js';
import { sortedWalk, type VaultWalk } from './vault-walk.js';

const data = workerData as ReaderData;
const send = (message: ReaderMessage, transfer: ArrayBuffer[] = []): void =>
  parentPort!.postMessage(message, transfer);

const prefix = rootPrefix(data.root);
const walked = walk();
if (walked?.claims) statChunks(walked.notes, walked.claims);
else if (walked) readChunks(walked.notes);

/**
 * Walks the vault and sends the walk, in `stat` mode with the chunks' claims (note-stat-chunk.ts);
 * undefined when the walk failed (the scan walks itself then).
 */
function walk(): { notes: string[]; claims: Int32Array | undefined } | undefined {
  let found: VaultWalk;
  try {
    found = sortedWalk({ root: data.root, dataDir: data.dataDir });
  } catch {
    send({ kind: 'walk', failed: true });
    return undefined;
  }
  const { notes, folders, links, temps, unlisted } = found;
  const claims =
    data.mode === 'stat'
      ? new Int32Array(new SharedArrayBuffer(4 * Math.ceil(notes.length / data.chunkSize)))
      : undefined;
  send({ kind: 'walk', notes: notes.join('\0'), folders, links, temps, unlisted, claims });
  return { notes, claims };
}

/** Looks the chunks up from the first on, until one was taken over by the main thread. */
function statChunks(notes: string[], claims: Int32Array): void {
  for (let index = 0; index < claims.length && claimChunk(claims, index, CLAIMED_BY_READER); index++) {
    const first = index * data.chunkSize;
    const { kinds, stamps } = statChunk(notes, prefix, first, Math.min(data.chunkSize, notes.length - first));
    send({ kind: 'stat', index, kinds, stamps }, [kinds.buffer, stamps.buffer]);
  }
}

function readChunks(notes: string[]): void {
  const bytes = new Uint8Array(data.ring!);
  for (let index = 0, first = 0; first < notes.length; index++, first += data.chunkSize) {
    const slot = index % data.slots;
    Atomics.wait(data.state, slot, FILLED);
    const base = slot * data.slotBytes;
    const count = Math.min(data.chunkSize, notes.length - first);
    const ends = new Int32Array(count);
    const left: number[] = [];
    const errors: Array<{ index: number; code: string | undefined; message: string }> = [];
    let used = 0;
    for (let i = 0; i < count; i++) {
      let fd: number | undefined;
      try {
        fd = openSync(prefix + notes[first + i]!, 'r');
        const room = data.slotBytes - used;
        // A read of a regular file returns less than asked only at its end (as in readNote).
        const n = room > 0 ? readSync(fd, bytes, base + used, room, 0) : room;
        if (n < room) used += n;
        else left.push(i);
      } catch (err) {
        const { code, message } = err as NodeJS.ErrnoException;
        errors.push({ index: i, code, message });
      } finally {
        if (fd !== undefined) closeSync(fd);
      }
      ends[i] = used;
    }
    Atomics.store(data.state, slot, FILLED);
    send({ kind: 'read', index, ends, left, errors }, [ends.buffer]);
  }
}
