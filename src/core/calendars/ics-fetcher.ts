/**
 * Reads the ICS text of a subscription: a GET for remote feeds (webcal:// is fetched over https,
 * as calendar apps do), a vault file for local ones. Failures become Errors with a message fit
 * for `lastError`.
 */
import { promises as fs } from 'node:fs';
import { requestSignal, type FetchResponse, type HttpClient } from '../net/http-client.js';
import type { VaultPathPolicy } from '../vault/paths.js';
import { vaultFilePath } from '../vault/vault-files.js';
import type { IcsSubscription } from './types.js';

export interface IcsSourceText {
  text: string;
  /** Modification time of a local file (ms), to notice edits without a watcher. */
  mtimeMs?: number;
}

export interface FetcherOptions {
  vault: VaultPathPolicy;
  http: HttpClient;
  timeoutMs: number;
  /** Aborts the request early (service shutdown). */
  signal?: AbortSignal;
}

/** Feeds larger than this are refused rather than buffered (a year of a busy calendar is ~1 MB). */
export const MAX_FEED_BYTES = 20 * 1024 * 1024;

async function readCapped(res: FetchResponse): Promise<string> {
  const declared = Number(res.headers.get('content-length'));
  if (declared > MAX_FEED_BYTES) throw new Error('Calendar feed is too large');
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > MAX_FEED_BYTES) {
      await reader.cancel().catch(() => {});
      throw new Error('Calendar feed is too large');
    }
    chunks.push(value);
  }
  return icsText(Buffer.concat(chunks));
}

/**
 * A feed's text from its bytes, its folded lines unfolded first. Feeds fold lines at 75 bytes,
 * which may fall inside a character of several bytes (an `é` of Outlook's or Google's folding);
 * decoded before it is unfolded, such a character became two replacement characters. Unfolding
 * removes each line break followed by a space or a tab, with that one character (RFC 5545's
 * rule). A byte order mark is dropped; bytes that are not UTF-8 read as replacement characters.
 */
export function icsText(bytes: Buffer): string {
  const parts: Buffer[] = [];
  let from = 0;
  for (let lf = bytes.indexOf(LF); lf !== -1; lf = bytes.indexOf(LF, lf + 1)) {
    const next = bytes[lf + 1];
    if (next !== SPACE && next !== TAB) continue;
    parts.push(bytes.subarray(from, lf > 0 && bytes[lf - 1] === CR ? lf - 1 : lf));
    from = lf + 2;
  }
  parts.push(bytes.subarray(from));
  return new TextDecoder('utf-8').decode(parts.length === 1 ? bytes : Buffer.concat(parts));
}

const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;

const HEADERS = {
  Accept: 'text/calendar,*/*;q=0.1',
  'Accept-Language': 'en-US',
  // Some calendar hosts refuse requests without a browser-like agent.
  'User-Agent': 'Mozilla/5.0 (compatible; Taskdown calendar fetcher)',
};

export function remoteUrl(url: string): string {
  return url.replace(/^webcal:\/\//i, 'https://');
}

export async function fetchIcsSource(sub: IcsSubscription, options: FetcherOptions): Promise<IcsSourceText> {
  if (sub.filePath !== undefined) {
    const abs = vaultFilePath(options.vault, sub.filePath, 'ICS file');
    try {
      // The same cap as a remote feed's, looked at before the file is read.
      const stat = await fs.stat(abs);
      if (stat.size > MAX_FEED_BYTES) throw new Error('Calendar feed is too large');
      return { text: icsText(await fs.readFile(abs)), mtimeMs: stat.mtimeMs };
    } catch (err) {
      if (!(err as NodeJS.ErrnoException).code) throw err;
      const code = (err as NodeJS.ErrnoException).code;
      throw new Error(
        code === 'ENOENT'
          ? `File not found: ${sub.filePath}`
          : `Cannot read ${sub.filePath}: ${code ?? 'error'}`,
      );
    }
  }
  if (!sub.url) throw new Error('Remote subscription has no URL');
  let res: FetchResponse;
  try {
    res = await options.http.fetch(remoteUrl(sub.url), {
      headers: HEADERS,
      redirect: 'follow',
      signal: requestSignal(options.timeoutMs, options.signal),
    });
  } catch (err) {
    throw new Error(`Failed to fetch calendar: ${fetchFailure(err, options.timeoutMs)}`);
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => {});
    throw new Error(
      `Failed to fetch calendar: HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`,
    );
  }
  try {
    return { text: await readCapped(res) };
  } catch (err) {
    // A host that answers and then stops sending: the time limit ends the body, whose error
    // would otherwise read "The operation was aborted due to timeout".
    if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) {
      throw new Error(
        `Failed to fetch calendar: ${fetchFailure(err, options.timeoutMs)} while receiving the feed`,
      );
    }
    throw err;
  }
}

/** The reason of a failed request, in a few words. */
function fetchFailure(err: unknown, timeoutMs: number): string {
  const e = err as Error & { cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError') return `timed out after ${timeoutMs / 1000} s`;
  if (e.name === 'AbortError') return 'aborted';
  return e.cause?.code ?? e.cause?.message ?? e.message;
}

/** Modification time of a local feed's file, or undefined when it cannot be read. */
export async function localMtime(sub: IcsSubscription, vault: VaultPathPolicy): Promise<number | undefined> {
  if (sub.filePath === undefined) return undefined;
  try {
    return (await fs.stat(vaultFilePath(vault, sub.filePath, 'ICS file'))).mtimeMs;
  } catch {
    return undefined;
  }
}
