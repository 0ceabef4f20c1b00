/** The one line a failed start prints: what went wrong, in the project's words. */
import { statfsSync } from 'node:fs';
import { DataDirLockedError, LockFileError } from '../core/state/instance-lock.js';
import { StateFileError } from '../core/state/json-file.js';

/** Less free space than this on the data dir's disk makes a failed state write "disk full". */
const FULL_BELOW_BYTES = 1024 * 1024;

/**
 * `dataDir`, when given, is looked at for a full disk: SQLite reports one as "disk I/O error"
 * (its shared-memory file cannot grow) and a write of the lock file as a bare `ENOSPC … write`,
 * neither naming the cause the user can act on.
 */
export function describeStartError(
  err: unknown,
  dataDir?: string,
  freeBytes: (dir: string) => number | undefined = freeBytesOf,
): string {
  const e = err as NodeJS.ErrnoException & { address?: string; port?: number };
  if (e.code === 'EADDRINUSE')
    return `port ${e.port ?? ''} is already in use on ${e.address ?? 'that address'}`.replace('  ', ' ');
  if (e.code === 'EADDRNOTAVAIL')
    return `cannot bind address ${e.address ?? ''}: not available on this machine`;
  if (
    dataDir !== undefined &&
    (e.code === 'ENOSPC' || err instanceof StateFileError || err instanceof LockFileError)
  ) {
    const free = freeBytes(dataDir);
    if (e.code === 'ENOSPC' || (free !== undefined && free < FULL_BELOW_BYTES)) {
      const left = free === undefined ? '' : ` (${Math.floor(free / 1024)} KB free)`;
      const what = err instanceof StateFileError ? `${err.file}: ${err.reason}` : e.message;
      return `the disk holding the data dir ${dataDir} is full${left}: free some space, then start again (${what})`;
    }
  }
  if (e.code === 'EACCES') return `permission denied: ${e.message}`;
  if (err instanceof StateFileError || err instanceof DataDirLockedError || err instanceof LockFileError)
    return err.message;
  return e.message ?? String(err);
}

function freeBytesOf(dir: string): number | undefined {
  try {
    const stats = statfsSync(dir);
    return stats.bavail * stats.bsize;
  } catch {
    return undefined;
  }
}
