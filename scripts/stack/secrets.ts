import { join } from 'node:path';
import { ensureDevVars, randomSecret, writeDevVars, type Vars } from './dev-vars.ts';

export type WorkerName = 'registry' | 'chat' | 'specialist' | 'router' | 'hosting';

/** Where each Worker's secrets live: its .dev.vars (npm start) or one file per Worker under a test's dir. */
export function secretsFiles(root: string, secretsDir?: string): Record<WorkerName, string> {
  if (secretsDir) {
    const file = (name: WorkerName) => join(secretsDir, `${name}.dev.vars`);
    return {
      registry: file('registry'),
      chat: file('chat'),
      specialist: file('specialist'),
      router: file('router'),
      hosting: file('hosting'),
    };
  }
  return {
    registry: join(root, '.dev.vars'),
    chat: join(root, 'workers/chat/.dev.vars'),
    specialist: join(root, 'workers/specialist/.dev.vars'),
    router: join(root, 'workers/router/.dev.vars'),
    hosting: join(root, 'workers/hosting/.dev.vars'),
  };
}

/** Generates the secrets a fresh clone lacks (once; seeds must stay stable) and returns every Worker's. */
export function ensureSecrets(files: Record<WorkerName, string>): Record<WorkerName, Vars> {
  return {
    registry: ensureDevVars(files.registry, { ADMIN_TOKEN: randomSecret('admin') }),
    chat: ensureDevVars(files.chat, { CHAT_AGENT_SEED: randomSecret('chat-agent-seed') }),
    specialist: ensureDevVars(files.specialist, { FINANCIAL_AGENT_KEY: randomSecret('specialist-seed') }),
    router: ensureDevVars(files.router, { PRIMARY_AGENT_KEY: randomSecret('router-seed') }),
    hosting: ensureDevVars(files.hosting, { HOSTING_SEED_KEY: randomSecret('hosting-vault') }),
  };
}

/**
 * The agents' keys: each agent (and the hosting Worker, which registers hosted agents) its own registry key
 * (read + write), the specialist a chat-only key besides; the chat Worker's agent (llm1-agentic) its registry key.
 */
export interface AgentKeys {
  router: string;
  specialist: string;
  hosting: string;
  chat: string;
  chatAgent: string;
}

/** Gives each agent and the hosting Worker its own registry key, and the specialist its chat key. */
export function storeAgentKeys(files: Record<WorkerName, string>, keys: AgentKeys): void {
  writeDevVars(files.router, { REGISTRY_API_KEY: keys.router });
  writeDevVars(files.specialist, { REGISTRY_API_KEY: keys.specialist, CHAT_API_KEY: keys.chat });
  writeDevVars(files.hosting, { REGISTRY_API_KEY: keys.hosting });
  writeDevVars(files.chat, { CHAT_AGENT_REGISTRY_KEY: keys.chatAgent });
}
