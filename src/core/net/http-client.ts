/**
 * The one HTTP client for every outbound call: webhook deliveries, ICS feeds, and the Google and
 * Microsoft OAuth and calendar APIs. It is undici, the client behind Node's own `fetch`, used as a
 * library so that connections can be pooled per purpose and vetted before they are made:
 * - `fetch` (WHATWG fetch) on one shared keep-alive pool, for the calendar calls;
 * - `pool()` gives a caller a keep-alive pool of its own with a connection limit and an optional
 *   check of the resolved address before each connection (the webhook engine gives every webhook
 *   one, so a receiver that hangs holds only its own connections).
 */
import { createRequire } from 'node:module';
import type { Agent as AgentT, buildConnector as BuildConnectorT, Dispatcher, fetch as FetchT } from 'undici';

export type { Dispatcher };
export type FetchInit = NonNullable<Parameters<typeof FetchT>[1]>;
export type FetchResponse = Awaited<ReturnType<typeof FetchT>>;

interface Undici {
  Agent: typeof AgentT;
  buildConnector: typeof BuildConnectorT;
  fetch: typeof FetchT;
}

let loaded: Undici | undefined;

/**
 * undici, loaded on the first outbound call: a server with no webhook and no calendar never loads
 * it. It is an installed dependency, not bundled, so that it can load late without the bundle
 * evaluating it at every start: about 20 ms of a start on the task bench (docs/performance.md).
 */
function undici(): Undici {
  loaded ??= createRequire(import.meta.url)('undici') as Undici;
  return loaded;
}

/**
 * Resolves `host` and returns the address to connect to, or rejects (with the reason as the
 * message) when the connection must not be made.
 */
export type AddressCheck = (host: string, port: number) => Promise<string>;

/**
 * The signal of one outbound request: its time limit, and `stopping` (the server's stop) when
 * given, whichever comes first.
 */
export function requestSignal(timeoutMs: number, stopping?: AbortSignal): AbortSignal {
  const timeout = AbortSignal.timeout(timeoutMs);
  return stopping ? AbortSignal.any([stopping, timeout]) : timeout;
}

export interface PoolOptions {
  /** Connections open at once (further requests wait for one). */
  connections: number;
  check?: AddressCheck;
}

export interface HttpClient {
  fetch(url: string, init?: FetchInit): Promise<FetchResponse>;
  pool(options: PoolOptions): Dispatcher;
  /** Closes the shared pool (pools handed out are closed by their owners). */
  close(): Promise<void>;
}

/** Connecting (TCP and TLS) gives up after this long; the caller's own timeout may be shorter. */
const CONNECT_TIMEOUT_MS = 10_000;

/** @param check vets the address of every connection `fetch` makes (see AddressCheck) */
export function createHttpClient(check?: AddressCheck): HttpClient {
  let shared: AgentT | undefined;
  return {
    fetch: (url, init = {}) => {
      const { Agent, fetch } = undici();
      shared ??= new Agent({ connect: connector(check) });
      return fetch(url, { ...init, dispatcher: shared });
    },
    pool: ({ connections, check }) => new (undici().Agent)({ connections, connect: connector(check) }),
    close: async () => {
      await shared?.close();
    },
  };
}

function connector(check: AddressCheck | undefined): BuildConnectorT.connector {
  const base = undici().buildConnector({ timeout: CONNECT_TIMEOUT_MS });
  if (!check) return base;
  return (options, callback) => {
    const port = Number(options.port) || (options.protocol === 'https:' ? 443 : 80);
    check(options.hostname, port).then(
      // Dial the vetted address; TLS still verifies the certificate against the URL's host name
      // (undici derives the server name from `host`, which keeps the original name).
      (address) => base({ ...options, hostname: address }, callback),
      (err: unknown) => callback(err as Error, null),
    );
  };
}
