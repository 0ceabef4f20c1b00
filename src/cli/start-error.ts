/** The one line a failed start prints: what went wrong, in the project's words. */
import { DataDirLockedError } from '../core/state/instance-lock.js';
import { StateFileError } from '../core/state/json-file.js';

export function describeStartError(err: unknown): string {
  const e = err as NodeJS.ErrnoException & { address?: string; port?: number };
  if (e.code === 'EADDRINUSE')
    return `port ${e.port ?? ''} is already in use on ${e.address ?? 'that address'}`.replace('  ', ' ');
  if (e.code === 'EADDRNOTAVAIL')
    return `cannot bind address ${e.address ?? ''}: not available on this machine`;
  if (e.code === 'EACCES') return `permission denied: ${e.message}`;
  if (err instanceof StateFileError || err instanceof DataDirLockedError) return err.message;
  return e.message ?? String(err);
}
