import { z } from 'zod';
import { agentRecordSchema } from '../../../../schemas/search.ts';
import { registryFetch } from './registry-fetch.ts';

/**
 * One agent of a registry search result, as far as discovery needs it: the facts the registry read from its
 * README at registration (the README itself is never parsed here).
 */
export const foundAgentSchema = agentRecordSchema.pick({
  address: true,
  name: true,
  handle: true,
  status: true,
  description: true,
  tags: true,
  use_cases: true,
  functions: true,
});
export type FoundAgent = z.infer<typeof foundAgentSchema>;
const searchPageSchema = z.object({ agents: z.array(foundAgentSchema), total: z.number().int() });

interface SearchOutcome {
  agents: FoundAgent[];
  total: number;
  error: string | null;
}

/** `POST /v1/search/agents` on the registry with the caller's own key. A failed search is reported, not thrown: the chat still gets its answer. */
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
      return { agents: [], total: 0, error: `registry search answered ${response.status}` };
    }
    const page = searchPageSchema.safeParse(await response.json());
    if (!page.success) return { agents: [], total: 0, error: 'registry search answered a body that is not a search page' };
    const { agents, total } = page.data;
    return { agents, total, error: null };
  } catch (error) {
    console.error('chat: registry search failed', error);
    return { agents: [], total: 0, error: 'registry search failed' };
  }
}
