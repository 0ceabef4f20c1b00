/**
 * Looking up one chunk of a restart's walked notes (note-prefetch.ts), and deciding which thread
 * does it. The reader thread looks the chunks up from the first on; the main thread, once it has
 * nothing left to do but wait for them, takes the rest over from the last one back. Each chunk is
 * claimed in a shared array before it is looked up, so the two meet in the middle and no chunk is
 * looked up twice or not at all.
 */
import { statSync } from 'node:fs';
import { ASK_AGAIN, FILE, MISSING, NOT_A_FILE } from './note-reader-protocol.js';

/** A chunk's entry in the shared claims: nobody's yet, or whose. */
export const UNCLAIMED = 0;
export const CLAIMED_BY_READER = 1;
export const CLAIMED_BY_SCAN = 2;

/** Claims chunk `index` for `who`; false when the other thread had claimed it. */
export function claimChunk(claims: Int32Array, index: number, who: number): boolean {
  return Atomics.compareExchange(claims, index, UNCLAIMED, who) === UNCLAIMED;
}

/** A chunk's lookups: per note its kind and, for a file, size, mtime, ctime and inode. */
export interface ChunkStats {
  kinds: Uint8Array<ArrayBuffer>;
  stamps: Float64Array<ArrayBuffer>;
}

/** Looks up `count` notes from `first` on (vault-relative paths after `prefix`). */
export function statChunk(notes: readonly string[], prefix: string, first: number, count: number): ChunkStats {
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
      const at = i * 4;
      stamps[at] = stat.size;
      stamps[at + 1] = stat.mtimeMs;
      stamps[at + 2] = stat.ctimeMs;
      stamps[at + 3] = stat.ino;
    } catch {
      kinds[i] = ASK_AGAIN;
    }
  }
  return { kinds, stamps };
}
