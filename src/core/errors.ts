/**
 * Coded domain errors. The domain never knows about HTTP: it throws a DomainError with a code,
 * and each adapter (HTTP, CLI, conformance adapter) maps the code to its own vocabulary.
 * The message is user-facing and must be safe to return verbatim.
 */
export type DomainErrorCode =
  | 'NOT_FOUND' // the addressed thing does not exist
  | 'INVALID' // the input is wrong; nothing was changed
  | 'CONFLICT' // the request contradicts the current state (e.g. already running)
  | 'PRECONDITION_FAILED' // an If-Match style precondition did not hold
  | 'UNAVAILABLE'; // a dependency (feed, provider, the vault folder) could not be reached

export class DomainError extends Error {
  override readonly name = 'DomainError';
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    /** Optional machine-readable detail, e.g. the offending field name. */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const notFound = (message: string): DomainError => new DomainError('NOT_FOUND', message);
export const invalid = (message: string, details?: Record<string, unknown>): DomainError =>
  new DomainError('INVALID', message, details);
export const conflict = (message: string): DomainError => new DomainError('CONFLICT', message);

export function isDomainError(err: unknown): err is DomainError {
  return err instanceof DomainError;
}
