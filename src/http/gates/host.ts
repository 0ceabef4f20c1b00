/**
 * Host check (DNS rebinding): a page on a foreign name that an attacker points at this machine
 * sends its own name in `Host`. Every request, whatever its path, must name this server:
 * - always allowed: `localhost`, `127.0.0.1`, `[::1]` (any port), the address the server is bound
 *   to and the `--allowed-hosts` entries;
 * - when bound to a non-loopback address (which requires a token), also any IP address and this
 *   machine's host name, so the settings page works from a LAN address: a rebinding attack needs a
 *   DNS name, and an IP address in Host only comes from a page that this server itself served.
 * Everything else gets 403 `Host not allowed`; each refused name is logged once (up to a limit),
 * pointing at `--allowed-hosts`.
 */
import { isIP } from 'node:net';
import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import { canonicalHostname } from '../../config/allowed-hosts.js';
import { isLoopbackHost } from '../../config/config.js';
import { HttpError } from '../http-error.js';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);
/** Refused names remembered for logging once each; a flood of made-up names stops logging. */
const LOGGED_LIMIT = 100;

export interface HostPolicyOptions {
  /** The address the server binds. */
  bindHost: string;
  allowedHosts?: readonly string[];
  /** This machine's host name (os.hostname() unless a test sets it). */
  machineName?: string;
}

export class HostPolicy {
  /** Loopback names and `--allowed-hosts` entries. */
  private readonly named = new Set<string>(LOOPBACK_NAMES);
  /** `--allowed-hosts` entries with a leading dot: `.example.com`. */
  private readonly suffixes: string[] = [];
  /** This machine's names, allowed with IP addresses when bound to a non-loopback address. */
  private readonly machine = new Set<string>();
  private readonly lan: boolean;
  private readonly logged = new Set<string>();

  constructor(options: HostPolicyOptions) {
    for (const entry of options.allowedHosts ?? []) {
      if (entry.startsWith('.')) {
        this.suffixes.push(entry);
        this.named.add(entry.slice(1));
      } else this.named.add(entry);
    }
    // The address the server is bound to, as its listening line prints it (`--host 127.0.0.2`).
    const family = isIP(options.bindHost);
    if (family !== 0) this.named.add(family === 6 ? `[${options.bindHost}]` : options.bindHost);
    this.lan = !isLoopbackHost(options.bindHost);
    const machine = (options.machineName ?? os.hostname()).toLowerCase();
    if (machine !== '') {
      this.machine.add(machine);
      this.machine.add(`${machine.split('.')[0]}.local`);
    }
  }

  /** True for a loopback name or an `--allowed-hosts` entry: trusted as a page's origin too. */
  isNamed(hostname: string): boolean {
    return this.named.has(hostname) || this.suffixes.some((s) => hostname.endsWith(s));
  }

  /** True when `hostname` (canonical) names this server. */
  allowsName(hostname: string): boolean {
    if (this.isNamed(hostname)) return true;
    if (!this.lan) return false;
    return this.machine.has(hostname) || isIP(hostname.replace(/^\[|\]$/g, '')) !== 0;
  }

  /** Throws 403 unless the Host header names this server. */
  check(hostHeader: string | undefined, log: FastifyBaseLogger): void {
    const hostname = canonicalHostname(hostHeader);
    if (hostname !== null && this.allowsName(hostname)) return;
    const shown = String(hostHeader ?? '(none)').slice(0, 200);
    if (!this.logged.has(shown) && this.logged.size < LOGGED_LIMIT) {
      this.logged.add(shown);
      log.warn(
        { host: shown },
        'refused a request for a host name this server does not answer to; if it is yours (e.g. behind a reverse proxy), add it with --allowed-hosts',
      );
    }
    throw new HttpError(403, 'Host not allowed');
  }
}
