/**
 * Outbound URL policy: the platform sends messages and probes to URLs that agents registered, so it must
 * not become a way to reach hosts on its own network. Only http(s); loopback, private, link-local and
 * reserved hosts only where the deployment allows them (local development).
 *
 * The host is judged after the URL parser canonicalised it (decimal, octal and hex IPv4 become dotted quads;
 * IPv6 is compressed and lowercased). Names are judged by their reserved suffixes only: Workers have no DNS
 * API, so a public name that resolves to a private address is stopped by the edge itself
 * (`global_fetch_strictly_public` in every Worker's compatibility flags), not here.
 */

/** IPv4 ranges that are not globally reachable unicast (RFC 6890 and its successors), as [first octets, prefix length]. */
const NON_PUBLIC_IPV4: [number[], number][] = [
  [[0], 8], // this network
  [[10], 8], // private
  [[100, 64], 10], // carrier-grade NAT
  [[127], 8], // loopback
  [[169, 254], 16], // link-local (cloud metadata)
  [[172, 16], 12], // private
  [[192, 0, 0], 24], // IETF protocol assignments
  [[192, 0, 2], 24], // documentation
  [[192, 88, 99], 24], // 6to4 relay anycast
  [[192, 168], 16], // private
  [[198, 18], 15], // benchmarking
  [[198, 51, 100], 24], // documentation
  [[203, 0, 113], 24], // documentation
  [[224], 4], // multicast
  [[240], 4], // reserved and broadcast
];

/** Reserved names that never resolve on the public internet (RFC 6761, RFC 8375 and common private zones). */
const RESERVED_SUFFIXES = ['localhost', 'local', 'internal', 'intranet', 'lan', 'home.arpa', 'test', 'invalid', 'onion', 'corp', 'private'];

function ipv4Value(octets: number[]): number {
  return octets.reduce((value, octet) => value * 256 + octet, 0);
}

function isPublicIpv4(octets: number[]): boolean {
  const value = ipv4Value(octets);
  return !NON_PUBLIC_IPV4.some(([start, bits]) => {
    const base = ipv4Value([...start, 0, 0, 0, 0].slice(0, 4));
    const size = 2 ** (32 - bits);
    return value >= base && value < base + size;
  });
}

/** The eight 16-bit groups of an IPv6 literal (as the URL parser writes it), or null. */
function ipv6Groups(text: string): number[] | null {
  let host = text;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(host);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    host = `${host.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = host.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string | undefined) => (part ? part.split(':').map((group) => Number.parseInt(group, 16)) : []);
  const head = parse(halves[0]);
  const tail = parse(halves[1]);
  const groups = halves.length === 2 ? [...head, ...Array<number>(8 - head.length - tail.length).fill(0), ...tail] : head;
  return groups.length === 8 && groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff) ? groups : null;
}

/**
 * Only global unicast (2000::/3) is public, less the ranges that are documentation, or that embed or tunnel
 * an IPv4 address (which would let a private IPv4 address through under an IPv6 spelling).
 */
function isPublicIpv6(text: string): boolean {
  const groups = ipv6Groups(text);
  if (!groups) return false;
  const [g0 = 0, g1 = 0] = groups;
  if ((g0 & 0xe000) !== 0x2000) return false; // outside 2000::/3: loopback, IPv4-compatible, mapped, NAT64, ULA, link-local, multicast
  if (g0 === 0x2002) return false; // 6to4
  if (g0 === 0x2001 && g1 === 0) return false; // Teredo
  if (g0 === 0x2001 && g1 === 0x0db8) return false; // documentation
  return true;
}

function isReservedName(host: string): boolean {
  const name = host.replace(/\.+$/, '');
  // Single-label names (`router`, `localhost.`) resolve through a local search domain, never on the public internet.
  if (!name.includes('.')) return true;
  return RESERVED_SUFFIXES.some((suffix) => name === suffix || name.endsWith(`.${suffix}`));
}

/** Whether a parsed URL's host may only be reached on this machine or a private network. */
function isNonPublicHost(url: URL): boolean {
  const host = url.hostname.toLowerCase();
  if (host.startsWith('[') && host.endsWith(']')) return !isPublicIpv6(host.slice(1, -1));
  const ipv4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (ipv4) return !isPublicIpv4(ipv4.slice(1).map(Number));
  return isReservedName(host);
}

/** Whether a URL points at this machine or a private network (unparseable URLs are not private: they fail elsewhere). */
export function isPrivateOrLoopbackUrl(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  return isNonPublicHost(url);
}

export type UrlCheck =
  | { ok: true; url: URL }
  | { ok: false; reason: 'invalid_url' | 'scheme_not_allowed' | 'private_address' | 'platform_address'; message: string };

export interface UrlPolicy {
  /** Loopback and private hosts are allowed (local development: ALLOW_PRIVATE_URLS="true"). */
  allowPrivate: boolean;
  /** Hosts (`name:port` as URL.host writes them) refused whatever else is allowed: the platform's own, for hosted code. */
  refusedHosts?: readonly string[];
}

/** Checks a URL the platform is about to call on someone's behalf. */
export function checkOutboundUrl(text: string, policy: UrlPolicy): UrlCheck {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: 'invalid_url', message: `${JSON.stringify(text.slice(0, 200))} is not an absolute URL` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, reason: 'scheme_not_allowed', message: `${url.protocol} URLs are not allowed; only http and https` };
  }
  if (url.username || url.password) return { ok: false, reason: 'invalid_url', message: 'URLs with credentials are not allowed' };
  if (policy.refusedHosts?.includes(url.host)) {
    return { ok: false, reason: 'platform_address', message: `${url.host} is the platform's own address, which this caller may not call` };
  }
  if (!policy.allowPrivate && isNonPublicHost(url)) {
    return {
      ok: false,
      reason: 'private_address',
      message: `${url.host} is a loopback or private address, which this deployment does not call (ALLOW_PRIVATE_URLS)`,
    };
  }
  return { ok: true, url };
}

/** The policy from a Worker's `ALLOW_PRIVATE_URLS` variable ("true" allows). */
export function urlPolicyFromEnv(value: string | undefined): UrlPolicy {
  return { allowPrivate: value === 'true' };
}
