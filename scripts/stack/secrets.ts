import { join } from 'node:path';
import { ensureDevVars, randomSecret, readDevVars, replaceDevVars, writeDevVars, type Vars } from './dev-vars.ts';

export type WorkerName = 'registry' | 'chat' | 'specialist' | 'router' | 'vault' | 'hosting';

/** Where each Worker's secrets live: its .dev.vars (npm start) or one file per Worker under a test's dir. */
export function secretsFiles(root: string, secretsDir?: string): Record<WorkerName, string> {
  if (secretsDir) {
    const file = (name: WorkerName) => join(secretsDir, `${name}.dev.vars`);
    return {
      registry: file('registry'),
      chat: file('chat'),
      specialist: file('specialist'),
      router: file('router'),
      vault: file('vault'),
      hosting: file('hosting'),
    };
  }
  return {
    registry: join(root, '.dev.vars'),
    chat: join(root, 'workers/chat/.dev.vars'),
    specialist: join(root, 'workers/specialist/.dev.vars'),
    router: join(root, 'workers/router/.dev.vars'),
    vault: join(root, 'workers/hosting-vault/.dev.vars'),
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
    vault: ensureDevVars(files.vault, { HOSTING_SEED_KEYS: vaultKeys(files.hosting) }),
    hosting: withoutSealingKey(files.hosting),
  };
}

/**
 * The vault's sealing keys: a checkout from before the vault keeps its hosting Worker's HOSTING_SEED_KEY as the key
 * named v1 (its sealed seeds open with it); a fresh one gets a new key k1.
 */
function vaultKeys(hostingFile: string): () => string {
  const old = readDevVars(hostingFile).HOSTING_SEED_KEY;
  return () => (old ? `v1:${old}` : `k1:${randomSecret('hosting-vault')()}`);
}

/** The hosting Worker's secrets, with any sealing key of a checkout from before the vault taken out of its file. */
function withoutSealingKey(hostingFile: string): Vars {
  const { HOSTING_SEED_KEY: _moved, ...rest } = readDevVars(hostingFile);
  return replaceDevVars(hostingFile, rest);
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
