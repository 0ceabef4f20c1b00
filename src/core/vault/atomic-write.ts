/**
 * Atomic file replacement: write a sibling temp file, fsync it, rename over the target.
 * Readers (Obsidian, sync tools, our watcher) therefore see either the old or the new content,
 * never a truncated file, and a crash mid-write leaves at most a stray temp file that the
 * scanner ignores (its name starts with `.` and ends with `.tmp`).
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';

export interface AtomicWriteOptions {
  /** File mode for new files, e.g. 0o600 for files holding secrets. */
  mode?: number;
  /** Create missing parent folders. */
  mkdir?: boolean;
}

export function isTempFileName(name: string): boolean {
  return name.startsWith('.') && name.endsWith('.tmp');
}

export async function writeFileAtomic(
  target: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const dir = path.dirname(target);
  if (options.mkdir) await fs.mkdir(dir, { recursive: true });
  const tmp = path.join(dir, `.${path.basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await fs.open(tmp, 'wx', options.mode ?? 0o644);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (err) {
    await handle.close().catch(() => {});
    await fs.rm(tmp, { force: true });
    throw err;
  }
  await handle.close();
  try {
    await fs.rename(tmp, target);
    // rename keeps the temp file's mode; enforce it for pre-existing targets too.
    if (options.mode !== undefined) await fs.chmod(target, options.mode);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
}
