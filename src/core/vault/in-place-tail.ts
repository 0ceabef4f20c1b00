/**
 * The rest of another program's in-place save landing in the file a note write took out of the
 * note's path (docs/vault-safety.md, "Notes caught mid-save").
 *
 * A program that rewrites a note in place opens it truncating and writes the text in parts; it
 * may pause between them (a slow writer, or one the scheduler set aside on a loaded machine). A
 * request reading the note in that pause builds on the first part only, and its check before the
 * swap passes, since the note still is that part. The swap takes the program's file out of the
 * path, but the program still has it open and writes the rest into it, where nobody would see it:
 * seen in testing as a note ending in `Sav` where `Saves:` and a line had been.
 *
 * So the file taken out is kept (open, under its temp name) while it looks like such a save in
 * progress: written after it was created, less than RECENT_MS before. It is looked at for a
 * while; if it is written again, the caller puts it back and computes its change again on the
 * whole save. A note saved atomically (a new file, complete when it appears, as many editors and
 * sync tools and our own writes save) is never waited for.
 */
import { fstatSync, type BigIntStats } from 'node:fs';

/** A file written this long after its creation was written in place (not saved atomically). */
export const IN_PLACE_MARGIN_MS = 5;

/**
 * A file taken out that was written in place less than this long before may still be mid-save:
 * the time since includes the request's own wait for the note to go quiet (10 ms) and the writing
 * of its temp file, both longer on a loaded machine.
 */
const RECENT_MS = 250;

/**
 * How many looks, POLL_MS apart, the file taken out must go unwritten before the save in it counts
 * as finished: 50 ms on an idle machine, far longer than a program writing a note in parts pauses
 * there. Counted in looks rather than milliseconds: a loaded machine delays the other program's
 * writing as it delays our looks, so the wait grows with the load. (A program pausing 20 ms
 * mid-save, at a load of 9 on 2 cores: 50 ms counted from the file's last write let the rest of a
 * save be lost in 1 run of 7; ten looks, in none of 9.)
 */
export const SETTLE_LOOKS = 10;
const POLL_MS = 5;

/** The clock and the wait, injected in tests. File times are wall-clock milliseconds. */
export interface TailClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemTailClock: TailClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * What a write to the file changes (a rename changes only its ctime, so a swap leaves this as it
 * was).
 */
export function writeMark(stat: BigIntStats): string {
  return `${stat.size}:${stat.mtimeNs}`;
}

const ms = (ns: bigint): number => Number(ns / 1_000_000n);

/**
 * Whether a file with these times may be an in-place save in progress at `now`. Where the file
 * system keeps no creation time (0), any recent write counts.
 */
export function mayBeMidSave(stat: BigIntStats, now: number): boolean {
  const written = ms(stat.mtimeNs);
  return written - ms(stat.birthtimeNs) > IN_PLACE_MARGIN_MS && now - written < RECENT_MS;
}

/**
 * Looks at the file open as `fd`, last written as `mark`, SETTLE_LOOKS times: true as soon as it
 * has been written again, false if it never was.
 */
export async function writtenAgain(fd: number, mark: string, clock: TailClock): Promise<boolean> {
  for (let look = 0; look < SETTLE_LOOKS; look++) {
    await clock.sleep(POLL_MS);
    if (writeMark(fstatSync(fd, { bigint: true })) !== mark) return true;
  }
  return false;
}
