/**
 * Resolved runtime configuration. Precedence: CLI flags > TASKDOWN_* environment > state in
 * the data dir (the token set from the settings page) > defaults.
 */
import type { RetentionPolicy } from '../core/store/event-journal.js';
import type { ValidationMode } from '../core/validation/mode.js';

export interface ServerConfig {
  /** Absolute vault folder. */
  vault: string;
  /** Absolute data dir (state files); by default per user and vault (data-dir.ts). */
  dataDir: string;
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Token from flag, token file or env; when null the settings-page token (if any) applies. */
  token: string | null;
  /** Host names besides the loopback ones that requests may name in `Host` (`--allowed-hosts`). */
  allowedHosts?: readonly string[];
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** JSON lines, human-readable lines, or (`auto`, the default) readable on a terminal only. */
  logFormat?: LogFormatChoice;
  /** Per-attempt webhook delivery timeout. */
  webhookTimeoutMs: number;
  /** Webhooks may target loopback and private addresses even when bound to a public address. */
  webhookAllowPrivate: boolean;
  /** How long the delivery log and the event journal keep records, and how many at most. */
  retention: RetentionPolicy;
  /** Whether a task write with a validation error is refused (strict, the default) or written and logged. */
  validation?: ValidationMode;
}

export type LogFormatChoice = 'auto' | 'pretty' | 'json';

export const DEFAULT_PORT = 8080;
export const DEFAULT_HOST = '127.0.0.1';

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost', '[::1]']);

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK.has(host.toLowerCase()) || /^127\.\d+\.\d+\.\d+$/.test(host);
}
