/** Building conformance envelopes from domain results and errors. */
import { isDomainError } from '../core/errors.js';
import type { OpResult } from './types.js';

export const okResult = (result: unknown): OpResult => ({ ok: true, result });

export const errResult = (error: string, details?: unknown): OpResult =>
  details === undefined ? { ok: false, error } : { ok: false, error, error_details: details };

/** Maps a thrown error (DomainError or anything else) to a failure envelope. */
export function fromThrown(error: unknown): OpResult {
  if (isDomainError(error)) return errResult(error.message, { code: error.code, ...error.details });
  return errResult(error instanceof Error ? error.message : String(error));
}

/** Runs a domain call and wraps its value, or the error it throws, in an envelope. */
export function attempt(run: () => unknown): OpResult {
  try {
    return okResult(run());
  } catch (error) {
    return fromThrown(error);
  }
}
