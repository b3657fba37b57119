import { MAILBOX_SUBMIT_PATH, PROXY_SUBMIT_PATH } from '../../../schemas/mailbox.ts';
import type { AgentDetail } from '../../../schemas/registry.ts';

export type Delivery = 'hosted' | 'mailbox' | 'proxy' | 'endpoint' | 'none';

function pathOf(url: string): string | null {
  try {
    return new URL(url).pathname;
  } catch {
    return null;
  }
}

/** How an agent receives messages: hosted here, through the registry's mailbox or proxy, at its own endpoint, or not at all. */
export function deliveryOf(agent: Pick<AgentDetail, 'type' | 'url' | 'endpoints'>): Delivery {
  if (agent.type === 'hosted') return 'hosted';
  const paths = agent.endpoints.map((endpoint) => pathOf(endpoint.url));
  if (paths.includes(MAILBOX_SUBMIT_PATH)) return 'mailbox';
  if (paths.includes(PROXY_SUBMIT_PATH)) return 'proxy';
  return agent.url || agent.endpoints.length ? 'endpoint' : 'none';
}

export const DELIVERY_LABELS: Record<Delivery, string> = {
  hosted: 'Hosted on this platform',
  mailbox: 'Mailbox: messages wait here until the agent collects them',
  proxy: 'Proxy: the registry relays each message to the agent’s webhook',
  endpoint: 'Its own endpoint',
  none: 'Nowhere yet (no endpoint registered)',
};
