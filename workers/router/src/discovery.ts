import { envNumber } from '../../../lib/config/env-number.ts';
import { z } from 'zod';
import { agentRecordSchema, SEARCH_LIMIT_MAX, type agentSearchRequestSchema } from '../../../schemas/search.ts';
import { failedRecently } from './failing-agents.ts';
import { callRegistry, RegistryError } from './registry.ts';
import { trustedAgents } from './trust.ts';

/** The address and status (the registry's liveness verdict) of each search hit. */
const searchResultSchema = z.object({ agents: z.array(agentRecordSchema.pick({ address: true, status: true })) });

/** Hits read per search, the most a page holds: lookalikes ranked above the specialist must not push it out. */
const SEARCH_WINDOW = SEARCH_LIMIT_MAX;

/** Trusted search hits, in the order they are tried. */
export interface Discovery {
  candidates: string[];
  /** Hits of the search, the router excluded. */
  matched: number;
}

type Hit = z.infer<typeof searchResultSchema>['agents'][number];
interface RegistryView {
  hits: Hit[];
  trusted: Awaited<ReturnType<typeof trustedAgents>>;
}

async function askRegistry(env: RouterEnv): Promise<RegistryView> {
  const body = {
    search_text: env.SPECIALIST_QUERY,
    sort: 'relevancy',
    direction: 'desc',
    limit: SEARCH_WINDOW,
    source: 'router',
  } satisfies z.input<typeof agentSearchRequestSchema>;
  const [search, trusted] = await Promise.all([callRegistry(env, '/v1/search/agents', { method: 'POST', body }), trustedAgents(env)]);
  const result = searchResultSchema.safeParse(search);
  if (!result.success) throw new RegistryError('registry search answered with an unexpected body');
  return { hits: result.data.agents, trusted };
}

/**
 * Per isolate, for DISCOVERY_CACHE_SECONDS: every user asks the same query, so one registry answer serves
 * them all, and concurrent requests share the one in flight. Without it each question costs a full ranked
 * search, and a burst of users queues up at the registry (the benchmark's main serialising hop).
 */
const views = new Map<string, { view: Promise<RegistryView>; until: number }>();

/** The registry's answer, reused while fresh unless `fresh` asks for a new one. */
function registryView(env: RouterEnv, fresh: boolean): Promise<RegistryView> {
  const ttlMs = envNumber(env.DISCOVERY_CACHE_SECONDS, 0) * 1000;
  const key = `${env.REGISTRY_URL} ${env.REGISTRY_API_KEY} ${env.SPECIALIST_QUERY} ${env.TRUSTED_AGENTS}`;
  const cached = views.get(key);
  if (!fresh && cached && cached.until > Date.now()) return cached.view;
  const view = askRegistry(env);
  // A failed answer is not kept: the next request asks again.
  views.set(key, { view, until: Date.now() + ttlMs });
  view.catch(() => views.delete(key));
  return view;
}

/**
 * The agents that may take a user's question: the registry's hits for SPECIALIST_QUERY that the router
 * trusts (trust.ts), reachable ones first (`local` counts where private URLs are allowed), then those whose
 * README declares the `request` payload, and agents that just failed to take a request last. Within each
 * group the search's order holds, so the spec's "take the first entry" picks the best live specialist.
 */
export async function discoverCandidates(env: RouterEnv, self: string): Promise<Discovery> {
  const found = candidatesIn(env, self, await registryView(env, false));
  // A reused answer that names no one may predate the specialist's registration: ask once more before saying so.
  return found.candidates.length ? found : candidatesIn(env, self, await registryView(env, true));
}

function candidatesIn(env: RouterEnv, self: string, { hits: all, trusted }: RegistryView): Discovery {
  const hits = all.filter((agent) => agent.address !== self);
  const allowPrivate = env.ALLOW_PRIVATE_URLS === 'true';
  const rank = (hit: Hit) => {
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
