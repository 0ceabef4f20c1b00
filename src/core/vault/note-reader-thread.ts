/**
 * The reader thread's program (started by note-prefetch.ts, which describes what it does and
 * why): walks the vault as the scan would (vault-walk.ts), sends the walk, then reads or looks up
 * the walked notes chunk by chunk, exactly the files the scan would open or stat.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import {
  ASK_AGAIN,
  FILE,
  FILLED,
  MISSING,
  NOT_A_FILE,
  type ReaderData,
  type ReaderMessage,
} from './note-reader-protocol.js';
import { sortedWalk } from './vault-walk.js';

const data = workerData as ReaderData;
const send = (message: ReaderMessage, transfer: ArrayBuffer[] = []): void =>
  parentPort!.postMessage(message, transfer);

const notes = walk();
if (notes) {
  const prefix = data.root.endsWith(path.sep) ? data.root : `${data.root}${path.sep}`;
  if (data.mode === 'stat') statChunks(notes, prefix);
  else readChunks(notes, prefix);
}

function walk(): string[] | undefined {
  try {
    const { notes, folders, links, temps } = sortedWalk({ root: data.root, dataDir: data.dataDir });
    send({ kind: 'walk', notes: notes.join('\0'), folders, links, temps });
    return notes;
  } catch {
    send({ kind: 'walk', failed: true });
    return undefined;
  }
}

function statChunks(notes: string[], prefix: string): void {
  for (let index = 0, first = 0; first < notes.length; index++, first += data.chunkSize) {
    const count = Math.min(data.chunkSize, notes.length - first);
    const kinds = new Uint8Array(count);
    const stamps = new Float64Array(count * 4);
    for (let i = 0; i < count; i++) {
      try {
        const stat = statSync(prefix + notes[first + i]!, { throwIfNoEntry: false });
        if (stat === undefined) {
          kinds[i] = MISSING;
          continue;
        }
        kinds[i] = stat.isFile() ? FILE : NOT_A_FILE;
        stamps.set([stat.size, stat.mtimeMs, stat.ctimeMs, stat.ino], i * 4);
      } catch {
        kinds[i] = ASK_AGAIN;
      }
    }
    send({ kind: 'stat', index, kinds, stamps }, [kinds.buffer, stamps.buffer]);
  }
}

function readChunks(notes: string[], prefix: string): void {
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
