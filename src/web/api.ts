/**
 * The page's client for its backend (`/settings-api/*`, same origin). Sends the session's token
 * as a bearer token and unwraps the `{success, data | error}` envelope. A 401 from any call
 * tells the app to ask for the token again.
 */
import { readToken } from './token-store.js';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

type Listener = () => void;
const unauthorizedListeners = new Set<Listener>();

/** Called whenever the server answers 401 (no token, or a token that is no longer valid). */
export function onUnauthorized(listener: Listener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

/** A request sent with `token` was answered 401: the page asks for the token again. */
export function noteUnauthorized(token: string | null): void {
  // A request sent with a token that this tab has since replaced (it just set or generated a new
  // one) says nothing about the current token, so only a 401 for the current one locks the page.
  if (readToken() !== token) return;
  for (const listener of unauthorizedListeners) listener();
}

export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = readToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(`/settings-api${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
    });
  } catch {
    throw new ApiError(0, 'The server cannot be reached');
  }
  let envelope: { success?: boolean; data?: T; error?: string } = {};
  try {
    envelope = (await res.json()) as typeof envelope;
  } catch {
    // A non-JSON answer (a proxy's error page) falls through to the generic message below.
  }
  if (res.status === 401) noteUnauthorized(token);
  if (!res.ok || envelope.success !== true) {
    throw new ApiError(res.status, envelope.error ?? `Request failed (HTTP ${res.status})`);
  }
  return envelope.data as T;
}

/** The message to show for any failure of `call`. */
export const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));
