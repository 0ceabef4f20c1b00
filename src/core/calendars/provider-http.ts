/**
 * Authenticated JSON GETs against a provider's calendar API, shared by the Google and Microsoft
 * clients: bearer token from the OAuth source, one retry with a fresh token on 401, timeouts,
 * and error messages that name the provider.
 */
import { requestSignal, type FetchResponse, type HttpClient } from '../net/http-client.js';
import type { OAuthTokenSource } from './oauth.js';
import type { ProviderConfig } from './types.js';

export interface ProviderHttp {
  getJson<T>(url: string, headers?: Record<string, string>): Promise<T>;
}

export function providerHttp(
  label: string,
  config: ProviderConfig,
  tokens: OAuthTokenSource,
  http: HttpClient,
  timeoutMs: number,
  stopping?: AbortSignal,
): ProviderHttp {
  const once = async (url: string, headers: Record<string, string>): Promise<FetchResponse> => {
    const token = await tokens.accessToken(config);
    try {
      return await http.fetch(url, {
        headers: { Accept: 'application/json', ...headers, Authorization: `Bearer ${token}` },
        signal: requestSignal(timeoutMs, stopping),
      });
    } catch (err) {
      throw new Error(`${label} request failed: ${(err as Error).message}`);
    }
  };
  return {
    async getJson<T>(url: string, headers: Record<string, string> = {}): Promise<T> {
      let res = await once(url, headers);
      if (res.status === 401) {
        await res.body?.cancel().catch(() => {});
        tokens.reset();
        res = await once(url, headers);
      }
      if (!res.ok) {
        await res.body?.cancel().catch(() => {});
        throw new Error(`${label} request failed: HTTP ${res.status}`);
      }
      try {
        return (await res.json()) as T;
      } catch {
        throw new Error(`${label} returned invalid JSON`);
      }
    },
  };
}

/** Joins a configured base URL and a path without doubling or losing slashes. */
export const joinUrl = (base: string, pathname: string): string => `${base.replace(/\/+$/, '')}${pathname}`;
