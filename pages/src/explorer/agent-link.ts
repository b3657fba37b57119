/** The explorer's page of one agent is `#explorer/<address>`, so other screens can link to it. */
const PREFIX = '#explorer/';

export function agentPageHash(address: string): string {
  return `${PREFIX}${encodeURIComponent(address)}`;
}

/** The agent address a hash links to, or null (not an agent page, or not decodable). */
export function linkedAgentAddress(hash: string): string | null {
  if (!hash.startsWith(PREFIX)) return null;
  try {
    return decodeURIComponent(hash.slice(PREFIX.length)) || null;
  } catch {
    return null;
  }
}
