import { isPrivateOrLoopbackUrl } from '../../../../lib/net/index.ts';
import { MAILBOX_SUBMIT_PATH, PROXY_SUBMIT_PATH } from '../../../../schemas/mailbox.ts';
import type { AgentStatus } from '../../../../schemas/search.ts';
import { AGENT_TYPES } from '../../../../schemas/search.ts';

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

function pathOf(url: string): string | null {
  try {
    return new URL(url).pathname;
  } catch {
    return null;
  }
}

/**
 * How an agent receives messages: through a registry's mailbox or proxy (an endpoint at uagents-core's
 * mailbox or proxy path), else at its own webhook; null when it registered none.
 */
export function deliveryOf(agent: Pick<StatusInputs, 'url' | 'endpoints'>): 'mailbox' | 'proxy' | 'endpoint' | null {
  const paths = agent.endpoints.map((endpoint) => pathOf(endpoint.url));
  if (paths.includes(MAILBOX_SUBMIT_PATH)) return 'mailbox';
  if (paths.includes(PROXY_SUBMIT_PATH)) return 'proxy';
  return webhookOf(agent) ? 'endpoint' : null;
}

/** The agent type the almanac shows: `mailbox` or `proxy` by its endpoint (as uAgents derives it), else as registered. */
export function almanacTypeOf(agent: Pick<StatusInputs, 'url' | 'endpoints'>, registered: string): (typeof AGENT_TYPES)[number] {
  const delivery = deliveryOf(agent);
  if (delivery === 'mailbox' || delivery === 'proxy') return delivery;
  return (AGENT_TYPES as readonly string[]).includes(registered) ? (registered as (typeof AGENT_TYPES)[number]) : 'custom';
}

/**
 * A mailbox is the registry's own: it stores messages whatever its host (in local development, loopback), so
 * a mailbox agent is `active` or `offline` by its signed status alone (a proxy agent by the webhook it relays to).
 * `local`: the webhook is loopback or private. `active`: the agent has not signed itself inactive and its
 * webhook did not fail the last liveness probe (an unprobed webhook counts as answering). `offline` otherwise.
 */
export function deriveStatus(agent: StatusInputs): AgentStatus {
  const webhook = webhookOf(agent);
  if (deliveryOf(agent) === 'mailbox') return agent.is_active ? 'active' : 'offline';
  if (webhook && isPrivateOrLoopbackUrl(webhook)) return 'local';
  if (!webhook || !agent.is_active) return 'offline';
  return agent.last_probe_ok === 0 || agent.last_probe_ok === false ? 'offline' : 'active';
}
