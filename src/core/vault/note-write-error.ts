/**
 * A write of a note that the file system refused: the vault's disk full or remounted read-only,
 * its permissions changed. That is no bug of the request (it answered 500 "Internal server
 * error", with a stack in the log): it is a 503 that says the cause in words and what was left as
 * it was. The atomic writer removes its temp file, so a refused write changes nothing.
 */
import { DomainError } from '../errors.js';

/** The error codes that mean the vault cannot be written now, in words. */
const CAUSES: Readonly<Record<string, string>> = {
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EIO: 'an input/output error',
};

/**
 * `err` as a 503 whose message `say` makes from the cause (`EROFS: the file system is
 * read-only`), when the file system refused the write; any other error as it is.
 */
export function noteWriteFailure(err: unknown, say: (why: string) => string): unknown {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const cause = code === undefined ? undefined : CAUSES[code];
  return cause === undefined ? err : new DomainError('UNAVAILABLE', say(`${code}: ${cause}`));
}
