/**
 * Outbound URL policy: the platform sends messages and probes to URLs that agents registered, so it must
 * not become a way to reach hosts on its own network. Only http(s); loopback, private, link-local and
 * reserved-name hosts only where the deployment allows them (local development).
 */

/** Whether a URL points at this machine or a private network (unparseable URLs are not private: they fail elsewhere). */
export function isPrivateOrLoopbackUrl(text: string): boolean {
  let host: string;
  try {
    host = new URL(text).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (host.startsWith('[') && host.endsWith(']')) return isPrivateIpv6(host.slice(1, -1));
  const ipv4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (ipv4) return isPrivateIpv4(ipv4.slice(1).map(Number));
  // Single-label names (`router`, `localhost`) and reserved suffixes do not resolve on the public internet.
  return !host.includes('.') || /\.(localhost|local|internal|lan|home\.arpa|test|invalid)$/.test(host.replace(/\.$/, ''));
}

function isPrivateIpv4([a = 0, b = 0]: number[]): boolean {
  return a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127) || a >= 224;
}

function isPrivateIpv6(host: string): boolean {
  if (host === '::1' || host === '::') return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host);
  if (mapped) return isPrivateIpv4(mapped[1]!.split('.').map(Number));
  // The URL parser writes IPv4-mapped addresses in hex (::ffff:7f00:1); all of them are refused.
  if (/^::ffff:[0-9a-f]{1,4}:[0-9a-f]{1,4}$/.test(host)) return true;
  return /^f[cd][0-9a-f]{2}:/.test(host) || /^fe[89ab][0-9a-f]:/.test(host);
}

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: 'invalid_url' | 'scheme_not_allowed' | 'private_address'; message: string };

export interface UrlPolicy {
  /** Loopback and private hosts are allowed (local development: ALLOW_PRIVATE_URLS="true"). */
  allowPrivate: boolean;
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
  if (!policy.allowPrivate && isPrivateOrLoopbackUrl(url.href)) {
    return { ok: false, reason: 'private_address', message: `${url.host} is a loopback or private address, which this deployment does not call (ALLOW_PRIVATE_URLS)` };
  }
  return { ok: true, url };
}

/** The policy from a Worker's `ALLOW_PRIVATE_URLS` variable ("true" allows). */
export function urlPolicyFromEnv(value: string | undefined): UrlPolicy {
  return { allowPrivate: value === 'true' };
}
