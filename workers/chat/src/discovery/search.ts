/** One agent of a registry search result, as far as discovery needs it. */
export interface FoundAgent {
  address: string;
  name: string;
  readme: string;
  status: string;
}

export interface SearchOutcome {
  agents: FoundAgent[];
  total: number;
  error: string | null;
}

/**
 * `POST /v1/search/agents` on the registry with the caller's own key: through the service binding when there
 * is one, else at REGISTRY_URL. A failed search is reported, not thrown: the chat still gets its answer.
 */
export async function searchAgents(env: ChatEnv, token: string, searchText: string, limit: number, signal: AbortSignal): Promise<SearchOutcome> {
  const init: RequestInit = {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ search_text: searchText, limit, offset: 0, sort: 'relevancy', direction: 'desc' }),
    signal,
  };
  try {
    const response = env.REGISTRY_API
      ? await env.REGISTRY_API.fetch('https://registry.internal/v1/search/agents', init)
      : await fetch(`${env.REGISTRY_URL.replace(/\/+$/, '')}/v1/search/agents`, init);
    if (!response.ok) {
      console.error(`chat: registry search answered ${response.status}`, (await response.text().catch(() => '')).slice(0, 300));
      return { agents: [], total: 0, error: `registry search answered ${response.status}` };
    }
    const body = (await response.json()) as { agents?: Partial<FoundAgent>[]; total?: number };
    const agents = (body.agents ?? [])
      .filter((agent): agent is Partial<FoundAgent> & { address: string } => typeof agent.address === 'string')
      .map((agent) => ({ address: agent.address, name: agent.name ?? agent.address, readme: agent.readme ?? '', status: agent.status ?? 'unknown' }));
    return { agents, total: typeof body.total === 'number' ? body.total : agents.length, error: null };
  } catch (error) {
    console.error('chat: registry search failed', error);
    return { agents: [], total: 0, error: 'registry search failed' };
  }
}
