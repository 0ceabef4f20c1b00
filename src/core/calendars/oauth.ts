/**
 * OAuth 2 refresh-token grant: trades the stored refresh token for an access token and reuses it
 * until shortly before it expires. Credentials come from settings; the token endpoint is
 * configurable so tests can serve it locally.
 */
import type { Clock } from '../clock.js';
import { requestSignal, type FetchResponse, type HttpClient } from '../net/http-client.js';
import type { ProviderConfig } from './types.js';

export interface TokenRequestOptions {
  defaultTokenUrl: string;
  /** Microsoft requires the scopes on every refresh; Google does not. */
  scope?: string;
  timeoutMs: number;
  /** Ends a token request under way (the server's stop). */
  stopping?: AbortSignal;
}

interface CachedToken {
  token: string;
  expiresAt: number;
  /** Credentials the token was issued for; a settings change invalidates it. */
  signature: string;
}

/** Renewal margin so a token is not used in its last seconds. */
const EARLY_MS = 60_000;

export class OAuthTokenSource {
  private cached: CachedToken | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly http: HttpClient,
    private readonly options: TokenRequestOptions,
  ) {}

  async accessToken(config: ProviderConfig): Promise<string> {
    const tokenUrl = config.tokenUrl ?? this.options.defaultTokenUrl;
    const signature = `${tokenUrl}|${config.clientId}|${config.refreshToken}`;
    const now = this.clock.now();
    if (this.cached && this.cached.signature === signature && this.cached.expiresAt - EARLY_MS > now) {
      return this.cached.token;
    }
    const form = new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: config.refreshToken,
      client_id: config.clientId,
      client_secret: config.clientSecret,
    });
    if (this.options.scope) form.set('scope', this.options.scope);
    let res: FetchResponse;
    try {
      res = await this.http.fetch(tokenUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
        body: form.toString(),
        signal: requestSignal(this.options.timeoutMs, this.options.stopping),
      });
    } catch (err) {
      throw new Error(`OAuth token refresh failed: ${(err as Error).message}`);
    }
    const body = (await res.json().catch(() => ({}))) as {
      access_token?: unknown;
      expires_in?: unknown;
      error?: unknown;
    };
    if (!res.ok || typeof body.access_token !== 'string') {
      const reason = typeof body.error === 'string' ? ` (${body.error})` : '';
      throw new Error(`OAuth token refresh failed: HTTP ${res.status}${reason}`);
    }
    const lifetime = typeof body.expires_in === 'number' ? body.expires_in : 3600;
    this.cached = { token: body.access_token, expiresAt: now + lifetime * 1000, signature };
    return body.access_token;
  }

  /** Forgets the token, e.g. after the provider answered 401. */
  reset(): void {
    this.cached = undefined;
  }
}
