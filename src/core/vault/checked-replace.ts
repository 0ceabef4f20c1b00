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
 * never stops naming a file.
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
} from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { invalid } from '../errors.js';
import { tempPathFor } from './atomic-write.js';
import { NoteChangedError } from './note-changed.js';
import { CANNOT_SWAP, systemSwap, type Swap } from './rename-exchange.js';
import { hashText } from './vault-scan.js';

/** Error codes of file systems without hard links (a check and a rename is used there). */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK']);

const code = (err: unknown): string | undefined => (err as NodeJS.ErrnoException).code;

/**
 * A `replace` step for writeFileAtomic: replaces the note at `target` by `tmp` if the note's text
 * still hashes to `basis` (undefined: if there is still no note); otherwise nothing changes and
 * NoteChangedError (for `rel`) is thrown. `swap` is the system's (null: pin and rename).
 */
export function checkedReplace(
  rel: string,
  basis: string | undefined,
  swap: Swap | null = systemSwap() ?? null,
): (tmp: string, target: string) => void {
  return (tmp, target) => {
    if (basis === undefined) {
      placeNew(tmp, target, rel);
      return;
    }
    const seen = identity(target);
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
    if (hashText(bytes.toString('utf8')) !== basis || identity(target) !== seen) throw new NoteChangedError(rel);
    if (swap === null || !swappedReplace(tmp, target, rel, basis, swap)) pinnedReplace(tmp, target, rel, basis);
  };
}

/**
 * Swaps `tmp` and `target`; if what `target` held was not the text hashing to `basis`, puts it
 * back and throws NoteChangedError. False (nothing changed) when this file system cannot swap.
 */
function swappedReplace(tmp: string, target: string, rel: string, basis: string, swap: Swap): boolean {
  // Files are told apart by inode number, which the system reuses once a file is gone: each file
  // compared stays open until the end, so another program's save cannot take its number.
  const held = new Held();
  try {
    const ours = held.open(tmp);
    try {
      swap(tmp, target);
    } catch (err) {
      if (code(err) === 'ENOENT') throw new NoteChangedError(rel);
      if (CANNOT_SWAP.has(code(err) ?? '')) return false;
      throw err;
    }
    // `tmp` now names what the note's path held right before: the basis, or another program's save.
    try {
      if (hashText(readFileSync(tmp, 'utf8')) !== basis) {
        restore(tmp, target, new Set([ours]), swap, held);
        throw new NoteChangedError(rel);
      }
    } finally {
      rmSync(tmp, { force: true });
    }
    return true;
  } finally {
    held.close();
  }
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
    const placing = held.open(out);
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

/** Files kept open (so their inode numbers stay theirs) until close(). */
class Held {
  private readonly fds: number[] = [];

  /** Opens `abs` and returns its inode number. */
  open(abs: string): bigint {
    const fd = openSync(abs, 'r');
    this.fds.push(fd);
    return fstatSync(fd, { bigint: true }).ino;
  }

  close(): void {
    for (const fd of this.fds.splice(0)) closeSync(fd);
  }
}

function inode(abs: string): bigint {
  return statSync(abs, { bigint: true }).ino;
}

/**
 * Renames `tmp` over `target` while a hard link pins what `target` held just before; if that was
 * not the text hashing to `basis`, it is put back and NoteChangedError is thrown.
 */
function pinnedReplace(tmp: string, target: string, rel: string, basis: string): void {
  // Our file stays open, as in swappedReplace, so that its inode number stays ours.
  const held = new Held();
  try {
    const ours = held.open(tmp);
    const pin = tempPathFor(target);
    try {
      linkSync(target, pin);
    } catch (err) {
      if (code(err) === 'ENOENT') throw new NoteChangedError(rel);
      if (!NO_HARD_LINKS.has(code(err) ?? '')) throw err;
      renameSync(tmp, target);
      return;
    }
    try {
      // Nothing between the link and the rename: that gap is the only one left.
      renameSync(tmp, target);
      if (hashText(readFileSync(pin, 'utf8')) !== basis) {
        putBack(pin, target, ours);
        throw new NoteChangedError(rel);
      }
    } finally {
      rmSync(pin, { force: true });
    }
  } finally {
    held.close();
  }
}

/**
 * Puts another program's save (pinned at `pin`) back in place of our text (inode `ours`), unless
 * that program saved again after our rename: its newer save stays (it was made after the pinned
 * one, so it holds what that program meant), where putting the older one back would destroy it.
 * Our text is looked at through a second pin, for the same reason as above.
 */
function putBack(pin: string, target: string, ours: bigint): void {
  const guard = tempPathFor(target);
  try {
    linkSync(target, guard);
  } catch (err) {
    // Deleted since: the deletion is the newest change, and stays.
    if (code(err) === 'ENOENT') return;
    throw err;
  }
  try {
    if (inode(guard) === ours) renameSync(pin, target);
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

/** Inode, size and nanosecond times: changes with any write to the file. */
function identity(abs: string): string | undefined {
  const stat = statSync(abs, { bigint: true, throwIfNoEntry: false });
  return stat && `${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
}
