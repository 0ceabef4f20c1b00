/**
 * The settings page's "HTTP API" controls: the enabled switch and the bearer token, kept in the
 * settings store. A token given on the command line (--token or TASKDOWN_TOKEN) outranks the
 * stored one, so while it is present the stored token cannot be changed from the page: a change
 * would have no effect and would mislead the user.
 */
import { randomBytes } from 'node:crypto';
import { conflict, invalid } from '../errors.js';
import type { SettingsStore } from './settings.js';

export type TokenSource = 'none' | 'settings' | 'command-line';

export interface ApiAccessStatus {
  apiEnabled: boolean;
  tokenSet: boolean;
  tokenSource: TokenSource;
}

/** Visible ASCII only: the token travels in an `Authorization` header, spaces would split it. */
const TOKEN_PATTERN = /^[\x21-\x7e]{8,256}$/;
export const TOKEN_RULE = 'Token must be 8 to 256 visible ASCII characters without spaces';

export interface ApiAccessOptions {
  settings: SettingsStore;
  /** Token from --token or TASKDOWN_TOKEN; null when none was given. */
  commandLineToken: string | null;
  /**
   * False when the server listens on a non-loopback address: clearing the token there would
   * expose the API to the network, which `serve` refuses at startup for the same reason.
   */
  mayRunWithoutToken: boolean;
}

export class ApiAccess {
  constructor(private readonly options: ApiAccessOptions) {}

  status(): ApiAccessStatus {
    const { apiEnabled, apiToken } = this.options.settings.get();
    const tokenSource: TokenSource = this.options.commandLineToken
      ? 'command-line'
      : apiToken
        ? 'settings'
        : 'none';
    return { apiEnabled, tokenSet: tokenSource !== 'none', tokenSource };
  }

  async setEnabled(enabled: boolean): Promise<ApiAccessStatus> {
    await this.options.settings.update((draft) => {
      draft.apiEnabled = enabled;
    });
    return this.status();
  }

  async setToken(token: string): Promise<ApiAccessStatus> {
    this.assertEditable();
    if (!TOKEN_PATTERN.test(token)) throw invalid(TOKEN_RULE, { field: 'token' });
    await this.options.settings.update((draft) => {
      draft.apiToken = token;
    });
    return this.status();
  }

  /** Replaces the token with 32 random bytes (64 hex characters) and returns it, once. */
  async rotateToken(): Promise<{ token: string; status: ApiAccessStatus }> {
    this.assertEditable();
    const token = randomBytes(32).toString('hex');
    await this.options.settings.update((draft) => {
      draft.apiToken = token;
    });
    return { token, status: this.status() };
  }

  async clearToken(): Promise<ApiAccessStatus> {
    this.assertEditable();
    if (!this.options.mayRunWithoutToken) {
      throw conflict('The token cannot be cleared while the server listens on a non-loopback address');
    }
    await this.options.settings.update((draft) => {
      draft.apiToken = null;
    });
    return this.status();
  }

  private assertEditable(): void {
    if (this.options.commandLineToken) {
      throw conflict(
        "The token is set by the server's command line (--token or TASKDOWN_TOKEN) and cannot be changed here",
      );
    }
  }
}
