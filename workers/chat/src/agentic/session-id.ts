import type { ChatBindings } from '../env.ts';

/** `x-session-id`: the caller's name for a conversation (ASI:One's agentic models take the same header). */
export const SESSION_HEADER = 'x-session-id';
export const MAX_SESSION_ID_CHARS = 200;

/**
 * The uAgents session (a UUID) of a conversation: derived from the key and the caller's `x-session-id`, so
 * follow-ups of one caller meet the same session and two keys never share one; a fresh random one without
 * the header. The key id goes into the hash, never onto the wire.
 */
export async function agentSessionFor(keyId: string, callerSessionId: string | undefined): Promise<string> {
  if (!callerSessionId) return crypto.randomUUID();
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${keyId}\n${callerSessionId}`)));
  // RFC 9562 version 8 (custom) and variant bits, so the value is a well-formed UUID.
  digest[6] = (digest[6]! & 0x0f) | 0x80;
  digest[8] = (digest[8]! & 0x3f) | 0x80;
  const hex = [...digest.slice(0, 16)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export function agentSession(env: ChatBindings, session: string) {
  return env.AGENT_SESSION.get(env.AGENT_SESSION.idFromName(session));
}
