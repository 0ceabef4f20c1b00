/**
 * Atomic file replacement: write a sibling temp file, fsync it, rename it over the target.
 * Readers (Obsidian, sync tools, our watcher) therefore see either the old or the new content,
 * never a truncated file, and a crash mid-write leaves at most a stray temp file, which the
 * scanner skips and the next start removes (crash-debris.ts).
 *
 * Hand-written rather than the `write-file-atomic` package because of `replace`: a note write
 * replaces the note only after checking it, in one synchronous step (docs/vault-safety.md), and
 * that package offers no hook between its fsync and its rename. Like that package, it keeps the
 * replaced file's mode and, where permitted, its owner.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, promises as fs, renameSync, statSync } from 'node:fs';
import path from 'node:path';

export interface AtomicWriteOptions {
  /**
   * File mode to enforce, e.g. 0o600 for files holding secrets. Without it a replaced file keeps
   * its mode and a new file gets the usual 0o666 less the umask.
   */
  mode?: number;
  /** Create missing parent folders. */
  mkdir?: boolean;
  /**
   * The last step, instead of renaming the temp file over the target: must put the temp file's
   * content at `target` (and may consume `tmp`), or throw to abort the write (a temp file left is
   * removed). Its synchronous part is the replacement; a promise it returns is awaited (a step
   * that goes on afterwards, and may still abort the write by rejecting).
   */
  replace?: Replace;
}

/** A last step of a write (see `replace`). */
export type Replace = (tmp: string, target: string) => void | Promise<void>;

/** Temp files are `.<name>.<12 hex digits>.tmp` beside their target. */
const TEMP_FILE = /^\..+\.[0-9a-f]{12}\.tmp$/;

export function isTempFileName(name: string): boolean {
  return TEMP_FILE.test(name);
}

/** A fresh temp file name beside `target`. */
export function tempPathFor(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
}

/**
 * What a file is written from: its text or bytes, or its parts in order (written as they come, so a
 * large file never needs to sit in memory whole).
 */
type FileData = string | Uint8Array | AsyncIterable<string | Uint8Array>;

export async function writeFileAtomic(
  target: string,
  data: FileData,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const dir = path.dirname(target);
  if (options.mkdir) await fs.mkdir(dir, { recursive: true });
  const existing = await fs.stat(target).catch(() => undefined);
  const mode = options.mode ?? (existing ? existing.mode & 0o7777 : undefined);
  const tmp = tempPathFor(target);
  const handle = await fs.open(tmp, 'wx', mode ?? 0o666);
  try {
    if (existing && ownerDiffers(existing)) {
      // Only root may give a file away, and a group only to one of the user's groups: keep what
      // is permitted and go on (the note then belongs to the server's user, as with any editor).
      await handle.chown(existing.uid, existing.gid).catch(() => handle.chown(-1, existing.gid).catch(() => {}));
    }
    // The mode given to open() is filtered by the umask; set it exactly (after chown, which may
    // clear set-id bits).
    if (mode !== undefined) await handle.chmod(mode);
    await fs.writeFile(handle, data);
    await handle.sync();
  } catch (err) {
    await handle.close().catch(() => {});
    await fs.rm(tmp, { force: true });
    throw err;
  }
  await handle.close();
  try {
    // Writing the temp file takes a while (half a second for 5 MB): a chmod by another program
    // meanwhile (a note made private) is kept, the mode being read again in this synchronous
    // step, right before the file is replaced.
    if (existing && options.mode === undefined) {
      const now = statSync(target, { throwIfNoEntry: false });
      if (now && (now.mode & 0o7777) !== mode) chmodSync(tmp, now.mode & 0o7777);
    }
    await (options.replace ?? renameSync)(tmp, target);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
}

function ownerDiffers(stat: { uid: number; gid: number }): boolean {
  return process.getuid !== undefined && (stat.uid !== process.getuid() || stat.gid !== process.getgid?.());
}
