import { z } from 'zod';
import { agentRecordSchema } from '../../../../schemas/search.ts';
import { registryFetch } from './registry-fetch.ts';

/**
 * One agent of a registry search result, as far as discovery needs it: the facts the registry read from its
 * README at registration (the README itself is never parsed here), and the evidence it keeps about the agent
 * (operator's feature, interactions from other accounts' agents, age, liveness), which llm1-agentic ranks by (agentic/trust.ts).
 */
const foundAgentSchema = agentRecordSchema.pick({
  address: true,
  name: true,
  handle: true,
  status: true,
  description: true,
  tags: true,
  use_cases: true,
  functions: true,
  featured: true,
  cross_account_interactions: true,
  created_at: true,
});
export type FoundAgent = z.infer<typeof foundAgentSchema>;
const searchPageSchema = z.object({ agents: z.array(foundAgentSchema), total: z.number().int() });

/**
 * Why a search gave nothing, in terms of what the caller can do: `refused` (the registry refused the key:
 * retrying cannot help), `rate_limited` (retrying later helps), `unavailable` (the registry failed or could
 * not be reached: usually passing), `malformed` (it answered something that is not a search page).
 */
export interface SearchFailure {
  kind: 'refused' | 'rate_limited' | 'unavailable' | 'malformed';
  status: number | null;
  /** Seconds the registry asked to wait (429), when it said. */
  retryAfter: number | null;
}

interface SearchOutcome {
  agents: FoundAgent[];
  total: number;
  error: string | null;
  failure: SearchFailure | null;
}

const failed = (error: string, failure: SearchFailure): SearchOutcome => ({ agents: [], total: 0, error, failure });

function failureOf(response: Response): SearchFailure {
  const status = response.status;
  if (status === 401 || status === 403) return { kind: 'refused', status, retryAfter: null };
  if (status === 429) {
    const retryAfter = Number(response.headers.get('retry-after'));
    return { kind: 'rate_limited', status, retryAfter: Number.isFinite(retryAfter) && retryAfter > 0 ? Math.ceil(retryAfter) : null };
  }
  return { kind: status >= 500 ? 'unavailable' : 'malformed', status, retryAfter: null };
}

/** `POST /v1/search/agents` on the registry with `token`. A failed search is reported, not thrown: the chat still gets its answer. */
export async function searchAgents(
  env: ChatEnv,
  token: string,
  searchText: string,
  limit: number,
  signal: AbortSignal,
): Promise<SearchOutcome> {
  const init: RequestInit = {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    // Requests in plain words are what the semantic ranking is for (Workers AI deployed, the concept model elsewhere).
    body: JSON.stringify({ search_text: searchText, limit, offset: 0, sort: 'relevancy', direction: 'desc', semantic_search: true }),
    signal,
  };
  try {
    const response = await registryFetch(env, token, '/v1/search/agents', init);
    if (!response.ok) {
      console.error(`chat: registry search answered ${response.status}`, (await response.text().catch(() => '')).slice(0, 300));
      return failed(`registry search answered ${response.status}`, failureOf(response));
    }
    const page = searchPageSchema.safeParse(await response.json());
    if (!page.success)
      return failed('registry search answered a body that is not a search page', { kind: 'malformed', status: 200, retryAfter: null });
    const { agents, total } = page.data;
    return { agents, total, error: null, failure: null };
  } catch (error) {
    if (signal.aborted) throw error;
    console.error('chat: registry search failed', error);
    return failed('registry search failed', { kind: 'unavailable', status: null, retryAfter: null });
  }
}
