import { ownAgentsResponseSchema, type OwnAgent } from '../../../schemas/own-agents.ts';
import { callRegistry, RegistryError } from './registry.ts';

/** What the router knows of an agent it may send users' questions to. */
export interface TrustedAgent {
  address: string;
  /** From the registry's own-agents list; unknown (null) for agents trusted by configuration only. */
  status: OwnAgent['status'] | null;
  /** Its README declares a `request` parameter (the payload the router sends). */
  declaresRequest: boolean | null;
}

/**
 * Read on every request, beside the search (no added wait): an agent the operator deletes stops getting
 * questions at once, and one indexed query is cheap next to the search.
 */
async function ownAgents(env: RouterEnv): Promise<OwnAgent[]> {
  const parsed = ownAgentsResponseSchema.safeParse(await callRegistry(env, '/v2/agents', { method: 'GET' }));
  if (!parsed.success) throw new RegistryError('the registry’s list of own agents has an unexpected body');
  return parsed.data.agents;
}

/** TRUSTED_AGENTS: addresses separated by commas or white space. */
function configuredAgents(env: RouterEnv): string[] {
  return (env.TRUSTED_AGENTS ?? '').split(/[\s,]+/).filter(Boolean);
}

/**
 * The agents the router trusts: by default those of its operator's account (the account of its registry
 * key), plus the TRUSTED_AGENTS allow-list. Anyone can register an agent whose README outranks the
 * specialist; only these may receive users' questions and write the answers they see.
 */
export async function trustedAgents(env: RouterEnv): Promise<Map<string, TrustedAgent>> {
  const trusted = new Map<string, TrustedAgent>();
  for (const address of configuredAgents(env)) trusted.set(address, { address, status: null, declaresRequest: null });
  for (const agent of await ownAgents(env)) {
    const declaresRequest = agent.functions.some((fn) => fn.parameters.some((parameter) => parameter.name === 'request'));
    trusted.set(agent.address, { address: agent.address, status: agent.status, declaresRequest });
  }
  return trusted;
}
