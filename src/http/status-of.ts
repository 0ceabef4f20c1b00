/** Maps domain error codes to HTTP statuses: the one place where that translation happens. */
import type { DomainErrorCode } from '../core/errors.js';

const STATUS: Record<DomainErrorCode, number> = {
  NOT_FOUND: 404,
  INVALID: 400,
  CONFLICT: 400, // the reference answers "already running" style conflicts with 400
  PRECONDITION_FAILED: 412,
  UNAVAILABLE: 503,
};

export const statusOf = (code: DomainErrorCode): number => STATUS[code];
