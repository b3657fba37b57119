import { z } from 'zod';
import { agentRecordSchema, type agentSearchRequestSchema } from '../../../schemas/search.ts';
import { failedRecently } from './failing-agents.ts';
import { callRegistry, RegistryError } from './registry.ts';
import { trustedAgents } from './trust.ts';

/** The address and status (the registry's liveness verdict) of each search hit. */
const searchResultSchema = z.object({ agents: z.array(agentRecordSchema.pick({ address: true, status: true })) });

/** Hits read per search: enough that lookalikes ranked above the specialist do not push it out. */
const SEARCH_WINDOW = 50;

/** Trusted search hits, in the order they are tried. */
export interface Discovery {
  candidates: string[];
  /** Hits of the search, the router excluded. */
  matched: number;
}

/**
 * The agents that may take a user's question: the registry's hits for SPECIALIST_QUERY that the router
 * trusts (trust.ts), reachable ones first (`local` counts where private URLs are allowed), then those whose
 * README declares the `request` payload, and agents that just failed to take a request last. Within each
 * group the search's order holds, so the spec's "take the first entry" picks the best live specialist.
 */
export async function discoverCandidates(env: RouterEnv, self: string): Promise<Discovery> {
  const body = { search_text: env.SPECIALIST_QUERY, sort: 'relevancy', direction: 'desc', limit: SEARCH_WINDOW, source: 'router' } satisfies z.input<
    typeof agentSearchRequestSchema
  >;
  const [search, trusted] = await Promise.all([callRegistry(env, '/v1/search/agents', { method: 'POST', body }), trustedAgents(env)]);
  const result = searchResultSchema.safeParse(search);
  if (!result.success) throw new RegistryError('registry search answered with an unexpected body');
  const hits = result.data.agents.filter((agent) => agent.address !== self);
  const allowPrivate = env.ALLOW_PRIVATE_URLS === 'true';
  const rank = (hit: (typeof hits)[number]) => {
    const reachable = hit.status === 'active' || (hit.status === 'local' && allowPrivate);
    const declares = trusted.get(hit.address)?.declaresRequest === true;
    return (failedRecently(hit.address) ? 4 : 0) + (reachable ? 0 : 2) + (declares ? 0 : 1);
  };
  const candidates = hits
    .filter((hit) => trusted.has(hit.address))
    .map((hit, index) => ({ hit, index, rank: rank(hit) }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map(({ hit }) => hit.address);
  return { candidates, matched: hits.length };
}
