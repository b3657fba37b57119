import type { ChatBindings } from '../env.ts';

/**
 * Whose key a registry call of llm1-agentic carries. The chat agent searches and looks agents up as itself
 * (its own account's key, CHAT_AGENT_REGISTRY_KEY): every key with `chat` may use llm1-agentic, whatever else
 * it may do. The caller's own key is used only to add what is the caller's (its own private agents), and only
 * when it has `read`; a refusal of it means "nothing of yours", never a failure (docs/decisions/0120).
 */
export interface RegistryAccess {
  /** The chat agent's own key; empty when the deployment has none (then nothing can be searched). */
  agentKey: string;
  callerKey: string;
}

export function registryAccess(env: ChatBindings, callerKey: string): RegistryAccess {
  return { agentKey: env.CHAT_AGENT_REGISTRY_KEY ?? '', callerKey };
}
