/**
 * Errors that exist only at the HTTP layer (auth, CORS, disabled API, unknown route). Domain
 * failures are DomainErrors and are mapped to a status in `status-of.ts`.
 */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** A request body that is not JSON, or nested too deeply: refused before any route sees it. */
export class BodyError extends HttpError {}
