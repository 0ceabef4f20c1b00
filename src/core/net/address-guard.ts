/**
 * The SSRF guard for the server's outbound requests: webhook targets (docs/webhooks.md, "Where
 * webhooks may point") and, with private targets allowed, calendar feeds and providers
 * (src/services.ts). A URL given to this server makes it send requests on behalf of whoever gave
 * it, so targets that reach what only the server can reach are refused:
 * - always: link-local addresses (169.254.0.0/16 with the cloud metadata service, fe80::/10),
 *   other metadata endpoints, unspecified, multicast, broadcast and reserved addresses;
 * - when the server listens on a non-loopback address (so callers may come from the network):
 *   loopback and private ranges too, unless the operator allows them (`--webhook-allow-private`);
 * - always: this server's own address and port (a webhook that calls the API feeds itself; a
 *   transform loop created hundreds of tasks a second).
 *
 * The check runs at registration on the URL's host, resolved, and again at connect time on the
 * address actually dialled (the HTTP client calls `vet` from its connector), so a hostname that
 * later resolves somewhere else (DNS rebinding) is refused then, with the reason in the attempt.
 * Numeric forms (`2130706433`, `0x7f.1`) are normalised by the URL parser before they get here;
 * IPv4-mapped, -compatible and NAT64 IPv6 addresses are judged by the IPv4 address they carry.
 */
import net from 'node:net';
import os from 'node:os';

export type AddressKind =
  | 'unspecified'
  | 'link-local'
  | 'metadata'
  | 'multicast'
  | 'broadcast'
  | 'reserved'
  | 'loopback'
  | 'private'
  | 'public';

const ALWAYS_REFUSED: ReadonlySet<AddressKind> = new Set([
  'unspecified',
  'link-local',
  'metadata',
  'multicast',
  'broadcast',
  'reserved',
]);

const DESCRIPTIONS: Record<AddressKind, string> = {
  unspecified: 'an unspecified address',
  'link-local': 'a link-local address (where cloud metadata services answer)',
  metadata: 'a cloud metadata address',
  multicast: 'a multicast address',
  broadcast: 'a broadcast address',
  reserved: 'a reserved address',
  loopback: 'a loopback address',
  private: 'a private-network address',
  public: 'a public address',
};

/** Ranges in the order they are tested: the first match names the address. */
const RANGES: Array<[AddressKind, Array<[string, number, 'ipv4' | 'ipv6']>]> = [
  [
    'metadata',
    [
      ['100.100.100.200', 32, 'ipv4'],
      ['fd00:ec2::254', 128, 'ipv6'],
    ],
  ],
  [
    'unspecified',
    [
      ['0.0.0.0', 8, 'ipv4'],
      ['::', 128, 'ipv6'],
    ],
  ],
  [
    'link-local',
    [
      ['169.254.0.0', 16, 'ipv4'],
      ['fe80::', 10, 'ipv6'],
    ],
  ],
  [
    'multicast',
    [
      ['224.0.0.0', 4, 'ipv4'],
      ['ff00::', 8, 'ipv6'],
    ],
  ],
  ['broadcast', [['255.255.255.255', 32, 'ipv4']]],
  ['reserved', [['240.0.0.0', 4, 'ipv4']]],
  [
    'loopback',
    [
      ['127.0.0.0', 8, 'ipv4'],
      ['::1', 128, 'ipv6'],
    ],
  ],
  [
    'private',
    [
      ['10.0.0.0', 8, 'ipv4'],
      ['172.16.0.0', 12, 'ipv4'],
      ['192.168.0.0', 16, 'ipv4'],
      ['100.64.0.0', 10, 'ipv4'],
      ['198.18.0.0', 15, 'ipv4'],
      ['fc00::', 7, 'ipv6'],
      ['fec0::', 10, 'ipv6'],
    ],
  ],
];

const LISTS: Array<[AddressKind, net.BlockList]> = RANGES.map(([kind, ranges]) => {
  const list = new net.BlockList();
  for (const [address, prefix, family] of ranges) list.addSubnet(address, prefix, family);
  return [kind, list];
});

/**
 * The IPv4 address an IPv6 address carries, for the forms that reach an IPv4 host:
 * IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d) and the NAT64 prefix 64:ff9b::/96.
 */
export function embeddedIpv4(address: string): string | undefined {
  const words = ipv6Words(address);
  if (!words) return undefined;
  const zeros = (from: number, to: number): boolean => words.slice(from, to).every((w) => w === 0);
  const mapped = zeros(0, 5) && words[5] === 0xffff;
  const compatible = zeros(0, 6) && (words[6] !== 0 || (words[7] as number) > 1);
  const nat64 = words[0] === 0x64 && words[1] === 0xff9b && zeros(2, 6);
  if (!mapped && !compatible && !nat64) return undefined;
  const [hi, lo] = [words[6] as number, words[7] as number];
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** The eight 16-bit words of an IPv6 address (with an optional dotted IPv4 tail). */
function ipv6Words(address: string): number[] | undefined {
  // Every IPv6 address has a colon. Testing for it first spares the common IPv4 case Node's IPv6
  // pattern, whose first use in a process compiles it: about 10 ms of every start (Node 20.20).
  if (!address.includes(':') || !net.isIPv6(address)) return undefined;
  let text = address.replace(/%.*$/, '').toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = (dotted[1] as string).split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [left, right] = text.includes('::') ? text.split('::') : [text, undefined];
  const head = left ? left.split(':') : [];
  const tail = right ? right.split(':') : [];
  const fill = right === undefined ? [] : Array<string>(8 - head.length - tail.length).fill('0');
  return [...head, ...fill, ...tail].map((word) => parseInt(word, 16));
}

/** Normalises an address for comparison and messages: embedded IPv4 wins, brackets and zones go. */
export function canonicalAddress(address: string): string {
  const bare = address.replace(/^\[|\]$/g, '');
  return embeddedIpv4(bare) ?? bare.replace(/%.*$/, '').toLowerCase();
}

export function classifyAddress(address: string): AddressKind {
  const canonical = canonicalAddress(address);
  const family = net.isIPv4(canonical) ? 'ipv4' : 'ipv6';
  for (const [kind, list] of LISTS) if (list.check(canonical, family)) return kind;
  return 'public';
}

export interface GuardPolicy {
  /** The address the server listens on (as configured: `127.0.0.1`, `0.0.0.0`, `::`, a name). */
  listenHost: string;
  /** The port the server listens on, once known. */
  listenPort: () => number | undefined;
  /** `--webhook-allow-private`: loopback and private targets allowed on a non-loopback bind. */
  allowPrivate: boolean;
  /** Whose rules refuse a connection, in its message (default: `webhook`). */
  rules?: string;
}

export type Lookup = (host: string) => Promise<string[]>;

// `node:dns/promises` is loaded on the first lookup, not with the server: 3.4–4.6 ms of every
// start on Node 24.21 (docs/performance.md, "Built-in modules on first use").
const systemLookup: Lookup = async (host) =>
  (await process.getBuiltinModule('node:dns/promises').lookup(host, { all: true, verbatim: true })).map(
    (entry) => entry.address,
  );

/** Registration waits this long for DNS at most; an unresolvable name is left to connect time. */
const REGISTRATION_LOOKUP_MS = 3000;

export class AddressRefused extends Error {
  override readonly name = 'AddressRefused';
}

export class AddressGuard {
  private readonly loopbackBind: boolean;
  private readonly lookup: Lookup;

  constructor(
    private readonly policy: GuardPolicy,
    lookup?: Lookup,
  ) {
    this.lookup = lookup ?? systemLookup;
    const host = policy.listenHost.replace(/^\[|\]$/g, '').toLowerCase();
    this.loopbackBind =
      host === 'localhost' || (net.isIP(host) !== 0 && classifyAddress(host) === 'loopback');
  }

  /**
   * Why a connection to `address:port` is refused, as a sentence about the address (e.g.
   * "127.0.0.1 is a loopback address …"), or undefined when it is allowed. `host` is the name
   * the address was resolved from, if any.
   */
  verdict(address: string, port: number, host?: string): string | undefined {
    const canonical = canonicalAddress(address);
    const subject = host && canonicalAddress(host) !== canonical ? `${host} (${canonical})` : canonical;
    const kind = classifyAddress(canonical);
    if (ALWAYS_REFUSED.has(kind)) return `${subject} is ${DESCRIPTIONS[kind]}`;
    if ((kind === 'loopback' || kind === 'private') && !this.loopbackBind && !this.policy.allowPrivate) {
      return (
        `${subject} is ${DESCRIPTIONS[kind]} and the server listens on ${this.policy.listenHost} ` +
        '(start it with --webhook-allow-private to allow such targets)'
      );
    }
    if (this.isSelf(canonical, kind, port)) return `${subject} port ${port} is this server's own address`;
    return undefined;
  }

  /**
   * Registration check of a webhook URL (an absolute http(s) URL). Resolves the host name; a name
   * that does not resolve now is accepted and judged when a delivery connects. Throws
   * AddressRefused with the reason.
   */
  async checkUrl(url: string): Promise<void> {
    const target = new URL(url);
    const host = target.hostname.replace(/^\[|\]$/g, '');
    const port = portOf(target);
    const addresses =
      net.isIP(host) !== 0
        ? [host]
        : await withTimeout(this.lookup(host), REGISTRATION_LOOKUP_MS).catch(() => []);
    for (const address of addresses) {
      const reason = this.verdict(address, port, host);
      if (reason) throw new AddressRefused(reason);
    }
  }

  /**
   * Connect-time check: resolves `host` and returns the address to dial, or throws
   * AddressRefused when any address it resolves to is refused (a name that mixes allowed and
   * refused addresses is refused as a whole: that mix is what rebinding attacks use).
   */
  async vet(host: string, port: number): Promise<string> {
    const bare = host.replace(/^\[|\]$/g, '');
    const addresses = net.isIP(bare) !== 0 ? [bare] : await this.lookup(bare);
    if (addresses.length === 0) throw new Error(`${bare} does not resolve`);
    for (const address of addresses) {
      const reason = this.verdict(address, port, bare);
      if (reason)
        throw new AddressRefused(`Refused by the ${this.policy.rules ?? 'webhook'} address rules: ${reason}`);
    }
    return addresses[0] as string;
  }

  /** Whether `address:port` reaches this server's own listening socket. */
  private isSelf(address: string, kind: AddressKind, port: number): boolean {
    if (port !== this.policy.listenPort()) return false;
    const listen = canonicalAddress(this.policy.listenHost);
    if (listen === 'localhost') return kind === 'loopback';
    if (net.isIP(listen) === 0) return false;
    if (classifyAddress(listen) === 'unspecified') {
      // Listening on every interface: loopback and every address of this machine reach it.
      return kind === 'loopback' || localAddresses().has(address);
    }
    return listen === address;
  }
}

export function portOf(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

function localAddresses(): Set<string> {
  const out = new Set<string>();
  for (const entries of Object.values(os.networkInterfaces())) {
    for (const entry of entries ?? []) out.add(canonicalAddress(entry.address));
  }
  return out;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timed out')), ms);
    timer.unref();
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err as Error);
      },
    );
  });
}
