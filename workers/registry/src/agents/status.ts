import { isPrivateOrLoopbackUrl } from '../../../../lib/net/index.ts';
import type { AgentStatus } from '../../../../schemas/search.ts';

interface StatusInputs {
  url: string | null;
  endpoints: { url: string }[];
  is_active: number | boolean;
  last_probe_ok: number | boolean | null;
}

/** The webhook messages go to: the registered url, else the first almanac endpoint. */
export function webhookOf(agent: Pick<StatusInputs, 'url' | 'endpoints'>): string | null {
  return agent.url ?? agent.endpoints[0]?.url ?? null;
}

/**
 * `local`: the webhook is loopback or private. `active`: the agent has not signed itself inactive and its
 * webhook did not fail the last liveness probe (an unprobed webhook counts as answering). `offline` otherwise.
 */
export function deriveStatus(agent: StatusInputs): AgentStatus {
  const webhook = webhookOf(agent);
  if (webhook && isPrivateOrLoopbackUrl(webhook)) return 'local';
  if (!webhook || !agent.is_active) return 'offline';
  return agent.last_probe_ok === 0 || agent.last_probe_ok === false ? 'offline' : 'active';
}
