/**
 * Reading one note, synchronously. The notes are small and, when Taskdown reads them, nearly
 * always in the page cache (just listed by a scan, just written by another program): a read is
 * three system calls of a few microseconds. An asynchronous read adds a thread-pool round trip
 * per step and a promise: the start's scan measured 70-140 ms synchronously against 240-340 ms
 * on the 10,000-note bench vault; the scale bench's burst of 5,000 notes written by another
 * program took 1,810 ms of server CPU with these reads against 2,180 ms with the callback
 * `readFile` (medians of 5 alternating runs, Node 20; docs/performance.md).
 */
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { DomainError } from '../errors.js';

/** What a failed read says about the note: gone (nothing there, or a folder now), or not. */
export function isGoneError(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR';
}

/**
 * A note is there but cannot be read now: its permissions or its folder's were changed, an I/O
 * error, no file handle left. That is not a deleted note (UNAVAILABLE: 503 for a request).
 */
export class NoteUnreadableError extends DomainError {
  constructor(
    readonly rel: string,
    readonly reason: string,
  ) {
    super('UNAVAILABLE', `${rel} cannot be read right now (${reason}); nothing was changed`);
  }
}

/** Shared by every read: nearly every note fits, and reads are synchronous, so one at a time. */
const readBuffer = Buffer.allocUnsafe(64 * 1024);

/**
 * A note's text, and its size in bytes as on disk. One open, one read into the shared buffer, one
 * close: a read of a regular file returns less than asked only at the end of the file, so a note
 * smaller than the buffer is whole after one read, where `readFileSync` reads once more to find
 * the end (on the bench vault: 10% less time reading). A larger note is read again, whole.
 */
export function readNote(abs: string): { text: string; size: number } {
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
