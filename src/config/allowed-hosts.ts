/**
 * Host names as the Host check compares them (see docs/security.md): the `Host` header or an
 * `--allowed-hosts` entry reduced to its lower-case hostname without port or trailing dot, IP
 * addresses in their canonical form (`[::1]`, `127.0.0.1`).
 */

// A hostname or bracketed IPv6 address with an optional port: no user info, path, percent or
// white space, which a browser never puts in Host and which URL parsing would reinterpret.
const HOST_RE = /^(\[[0-9a-f:.]+\]|[a-z0-9._~!$&'()*+,;=-]+)(:\d{1,5})?$/i;

/** The canonical hostname of a Host header value, or null when it is not a plain host[:port]. */
export function canonicalHostname(value: string | undefined): string | null {
  if (value === undefined || !HOST_RE.test(value)) return null;
  let hostname: string;
  try {
    hostname = new URL(`http://${value}`).hostname;
  } catch {
    return null;
  }
  return hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
}

/**
 * Parses `--allowed-hosts a,b` / `TASKDOWN_ALLOWED_HOSTS`: host names (a leading dot also allows
 * every subdomain, `.example.com`); throws with the offending entry.
 */
export function parseAllowedHosts(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const subdomains = entry.startsWith('.');
    const hostname = canonicalHostname(subdomains ? entry.slice(1) : entry);
    if (hostname === null || hostname === '') throw new Error(`invalid allowed host "${entry}"`);
    out.push(subdomains ? `.${hostname}` : hostname);
  }
  return out;
}
