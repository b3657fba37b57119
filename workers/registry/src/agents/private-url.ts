/**
 * Whether a URL points at this machine or a private network: such an agent is discoverable but marked
 * `local` (nobody outside can reach it), and the liveness probe reaches it only when private URLs are allowed.
 */
export function isPrivateUrl(text: string): boolean {
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
  return !host.includes('.') || /\.(localhost|local|internal|lan|home\.arpa|test|invalid)$/.test(host);
}

function isPrivateIpv4([a = 0, b = 0]: number[]): boolean {
  return a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127);
}

function isPrivateIpv6(host: string): boolean {
  if (host === '::1' || host === '::') return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host);
  if (mapped) return isPrivateIpv4(mapped[1]!.split('.').map(Number));
  if (/^::ffff:[0-9a-f]{1,4}:[0-9a-f]{1,4}$/.test(host)) return true;
  return /^f[cd][0-9a-f]{2}:/.test(host) || /^fe[89ab][0-9a-f]:/.test(host);
}
