import { createDevKey } from '../dev/bootstrap-key.ts';
import { createChatKey } from './chat-key.ts';
import type { AgentKeys } from './secrets.ts';

/**
 * Mints every agent's keys with the registry's admin token. The router and the specialist are one operator's
 * agents (the router trusts its own account's agents); hosted agents are tenants' code, registered under an
 * account of their own. So is the chat agent: it carries users' questions to any agent, and must not be one
 * the router trusts with answers.
 */
export async function createAgentKeys(registryUrl: string, adminToken: string): Promise<AgentKeys> {
  const registryKey = (name: string, accountId?: string) =>
    createDevKey({ registryUrl, adminToken, name, permissions: ['read', 'write'], accountId });
  const operator = await registryKey('local router');
  return {
    router: operator.key,
    specialist: (await registryKey('local specialist', operator.accountId)).key,
    hosting: (await registryKey('local hosting')).key,
    chat: await createChatKey(registryUrl, adminToken),
    chatAgent: (await registryKey('local chat agent')).key,
  };
}
