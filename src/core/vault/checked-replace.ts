/**
 * The last step of a note write: put the new text in place only if the note is still what the
 * change was computed from, and never destroy another program's save (docs/vault-safety.md).
 *
 * File systems offer no compare-and-rename, so a check followed by a rename leaves a window in
 * which another program's save can land and be replaced. That window was wider than it looks:
 * besides the process being paused between the two calls on a loaded machine, another program's
 * rename already in progress (blocked in the file system's journal while holding the folder) is
 * not visible to a look at the path, and completes just before ours (measured with the editor
 * test of test/integration/external-edits.test.ts at a load of 5 on 2 cores: the check-to-rename
 * step took over 0.3 ms in about one write in six, up to 25 ms, and one run in three lost a save).
 *
 * So the note is first checked (read and hashed, its identity taken before and after that read);
 * that spares a useless write when it already changed. Then the new text is put in place with a
 * swap (rename-exchange.ts): one system call puts our temp file at the note's path and moves
 * whatever the path held to the temp file's name, so nothing is ever destroyed. If what came out
 * is not the text the change was computed from, another program's save landed after the check:
 * it is put back (restore) and the change is redone on it (NoteChangedError). The note's path
 * never stops naming a file. What came out is also kept for a moment when it looks like an
 * in-place save in progress, whose writer may still write the rest of it there: it then goes back
 * in place too (in-place-tail.ts).
 *
 * Where there is no swap (the addon not built, a file system without it), the note is pinned
 * instead: a hard link to whatever the path holds, made right before a plain rename (making a
 * link takes the folder, like a rename, so it waits for a rename in progress and pins its
 * result), and what the pin holds is checked after the rename. That leaves one gap: a save
 * landing between those two back-to-back system calls is replaced with nothing to put back.
 * Renaming the note aside first and linking the new text in would close it, but leaves the path
 * empty for a moment, which editors and sync tools may take for a deletion (seen in testing: an
 * editor's read failed with ENOENT). A new note is linked into place, which fails when another
 * program created the path meanwhile. Where the file system has no hard links either, the check
 * is followed by a plain rename.
 */
import {
  closeSync,
  existsSync,
  fstatSync,
  linkSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  type BigIntStats,
} from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { invalid } from '../errors.js';
import { tempPathFor, type Replace } from './atomic-write.js';
import { mayBeMidSave, systemTailClock, writeMark, writtenAgain, type TailClock } from './in-place-tail.js';
import { NoteChangedError } from './note-changed.js';
import { CANNOT_SWAP, systemSwap, type Swap } from './rename-exchange.js';
import { hashText } from './vault-scan.js';

/** Error codes of file systems without hard links (a check and a rename is used there). */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK']);

const code = (err: unknown): string | undefined => (err as NodeJS.ErrnoException).code;

/**
 * A `replace` step for writeFileAtomic: replaces the note at `target` by `tmp` if the note's text
 * still hashes to `basis` (undefined: if there is still no note); otherwise nothing changes and
 * NoteChangedError (for `rel`) is thrown. `swap` is the system's (null: pin and rename). A
 * promise when the step goes on after the new text is in place (watching the file it took out,
 * in-place-tail.ts).
 */
export function checkedReplace(
  rel: string,
  basis: string | undefined,
  swap: Swap | null = systemSwap() ?? null,
  clock: TailClock = systemTailClock,
): Replace {
  return (tmp, target) => {
    if (basis === undefined) {
      placeNew(tmp, target, rel);
      return;
    }
    const seen = statSync(target, { bigint: true, throwIfNoEntry: false });
    let bytes;
    try {
      bytes = readFileSync(target);
    } catch (err) {
      if (code(err) === 'ENOENT') throw new NoteChangedError(rel);
      throw err;
    }
    // The note was read as UTF-8: bytes that are not came out as U+FFFD, and writing the text
    // back would put that character where they were, for good.
    if (!isUtf8(bytes)) throw invalid(`${rel} is not valid UTF-8 text; writing it would replace the bytes that are not, so nothing was written`);
    if (hashText(bytes.toString('utf8')) !== basis || !seen || !sameFile(seen, target)) throw new NoteChangedError(rel);
    return replaceChecked(tmp, target, rel, basis, writeMark(seen), swap, clock);
  };
}

/**
 * What a replace took out of the note's path: the file that held the basis, or another
 * program's save that landed after the check.
 */
interface TakenOut {
  /** Where that file is now (our temp file's name after a swap, the pin otherwise). */
  readonly path: string;
  /**
   * Puts it back in place of our text; false (nothing done) when another program has written
   * into our text in place since it was put there: that newer save stays.
   */
  putBack(): boolean;
}

/**
 * Puts `tmp` in place of the note checked to be the basis (last written as `mark`), then looks at
 * what came out: another program's save that landed after the check goes back in place
 * (NoteChangedError), and so does the file that held the basis when that program goes on writing
 * into it (an in-place save read half-way; in-place-tail.ts).
 */
function replaceChecked(
  tmp: string,
  target: string,
  rel: string,
  basis: string,
  mark: string,
  swap: Swap | null,
  clock: TailClock,
): void | Promise<void> {
  // Files are told apart by inode number, which the system reuses once a file is gone: each file
  // compared stays open until the end, so another program's save cannot take its number.
  const held = new Held();
  let out: TakenOut | undefined;
  let watching = false;
  try {
    const ours = held.open(tmp);
    out = (swap !== null && swapIn(tmp, target, rel, swap, ours, held)) || pinIn(tmp, target, rel, ours);
    if (out === undefined) return;
    const taken = out;
    const came = held.open(taken.path);
    const stat = fstatSync(came.fd, { bigint: true });
    if (writeMark(stat) !== mark || hashText(readFileSync(taken.path, 'utf8')) !== basis) {
      if (taken.putBack()) throw new NoteChangedError(rel);
      return;
    }
    if (!mayBeMidSave(stat, clock.now())) return;
    watching = true;
    return (async () => {
      try {
        const changed = (await writtenAgain(came.fd, mark, clock)) || hashText(readFileSync(taken.path, 'utf8')) !== basis;
        if (changed && taken.putBack()) throw new NoteChangedError(rel);
      } finally {
        rmSync(taken.path, { force: true });
        held.close();
      }
    })();
  } finally {
    if (!watching) {
      if (out) rmSync(out.path, { force: true });
      held.close();
    }
  }
}

/**
 * Swaps `tmp` (our file, `ours`) and `target`: `tmp` then names what the note's path held right
 * before. False (nothing changed) when this file system cannot swap.
 */
function swapIn(tmp: string, target: string, rel: string, swap: Swap, ours: HeldFile, held: Held): TakenOut | false {
  try {
    swap(tmp, target);
  } catch (err) {
    if (code(err) === 'ENOENT') throw new NoteChangedError(rel);
    if (CANNOT_SWAP.has(code(err) ?? '')) return false;
    throw err;
  }
  return {
    path: tmp,
    putBack: () => {
      if (ours.written()) return false;
      restore(tmp, target, new Set([ours.ino]), swap, held);
      return true;
    },
  };
}

/**
 * Puts another program's save, which our swap moved to `out`, back in place of our text. A swap
 * puts the file it moves in place and takes out what the path held; what it takes out may be
 * dropped only if it is older than what stays (`older`: our text, or an earlier save of that
 * program). If it is neither, the program saved again after our swap: that newer save goes back
 * in place by the next swap, and so on. Each round needs yet another save between two
 * back-to-back system calls, so this ends at once in practice. A note deleted meanwhile stays
 * deleted (the deletion is the newest change). Leaves in `out` a file that may be dropped.
 */
function restore(out: string, target: string, older: Set<bigint>, swap: Swap, held: Held): void {
  for (;;) {
    const placing = held.open(out).ino;
    try {
      swap(out, target);
    } catch (err) {
      if (code(err) === 'ENOENT') return;
      throw err;
    }
    if (older.has(inode(out))) return;
    older.add(placing);
  }
}

/** A file held open: its inode number, and whether it has been written since it was opened. */
interface HeldFile {
  readonly fd: number;
  readonly ino: bigint;
  written(): boolean;
}

/** Files kept open (so their inode numbers stay theirs) until close(). */
class Held {
  private readonly fds: number[] = [];

  open(abs: string): HeldFile {
    const fd = openSync(abs, 'r');
    this.fds.push(fd);
    const stat = fstatSync(fd, { bigint: true });
    const mark = writeMark(stat);
    return { fd, ino: stat.ino, written: () => writeMark(fstatSync(fd, { bigint: true })) !== mark };
  }

  close(): void {
    for (const fd of this.fds.splice(0)) closeSync(fd);
  }
}

function inode(abs: string): bigint {
  return statSync(abs, { bigint: true }).ino;
}

/**
 * Renames `tmp` (our file, `ours`) over `target` while a hard link pins what `target` held just
 * before; the pin is what was taken out. Undefined (nothing to look at) where the file system
 * has no hard links: there the check is followed by a plain rename.
 */
function pinIn(tmp: string, target: string, rel: string, ours: HeldFile): TakenOut | undefined {
  const pin = tempPathFor(target);
  try {
    linkSync(target, pin);
  } catch (err) {
    if (code(err) === 'ENOENT') throw new NoteChangedError(rel);
    if (!NO_HARD_LINKS.has(code(err) ?? '')) throw err;
    renameSync(tmp, target);
    return undefined;
  }
  try {
    // Nothing between the link and the rename: that gap is the only one left.
    renameSync(tmp, target);
  } catch (err) {
    rmSync(pin, { force: true });
    throw err;
  }
  return { path: pin, putBack: () => putBack(pin, target, ours) };
}

/**
 * Puts another program's save (pinned at `pin`) back in place of our text (`ours`), unless that
 * program saved again after our rename, or wrote into our text in place: its newer save stays (it
 * was made after the pinned one, so it holds what that program meant), where putting the older one
 * back would destroy it. Our text is looked at through a second pin, for the same reason as above.
 */
function putBack(pin: string, target: string, ours: HeldFile): boolean {
  const guard = tempPathFor(target);
  try {
    linkSync(target, guard);
  } catch (err) {
    // Deleted since: the deletion is the newest change, and stays.
    if (code(err) === 'ENOENT') return true;
    throw err;
  }
  try {
    if (inode(guard) !== ours.ino) return true;
    if (ours.written()) return false;
    renameSync(pin, target);
    return true;
  } finally {
    rmSync(guard, { force: true });
  }
}

/** Puts `tmp` at the free path `target`; NoteChangedError when another program created it. */
function placeNew(tmp: string, target: string, rel: string): void {
  try {
    linkSync(tmp, target);
  } catch (err) {
    if (code(err) === 'EEXIST') throw new NoteChangedError(rel);
    if (!NO_HARD_LINKS.has(code(err) ?? '')) throw err;
    if (existsSync(target)) throw new NoteChangedError(rel);
    renameSync(tmp, target);
    return;
  }
  unlinkSync(tmp);
}

/** Whether `abs` is still the file `seen` was taken of, unwritten since (inode, size, times). */
function sameFile(seen: BigIntStats, abs: string): boolean {
  const now = statSync(abs, { bigint: true, throwIfNoEntry: false });
  return (
    now !== undefined &&
    now.ino === seen.ino &&
    now.size === seen.size &&
    now.mtimeNs === seen.mtimeNs &&
    now.ctimeNs === seen.ctimeNs
  );
}
