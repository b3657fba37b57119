import { z } from 'zod';
import type { SearchResult } from './search-result.ts';

const TAVILY_SEARCH_URL = 'https://api.tavily.com/search';

/** Tavily's search answer, the fields the search worker reads. */
const tavilyAnswer = z
  .object({
    results: z.array(
      z.object({ title: z.string(), url: z.string(), content: z.string().optional(), published_date: z.string().optional() }).loose(),
    ),
  })
  .loose();

/** Web search by Tavily (when TAVILY_API_KEY is configured). */
export async function tavilySearch(apiKey: string, query: string, doFetch: typeof fetch): Promise<SearchResult[]> {
  const response = await doFetch(TAVILY_SEARCH_URL, {
    method: 'POST',
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ query, max_results: 5, search_depth: 'basic', topic: 'news' }),
    signal: AbortSignal.timeout(15_000),
  });
  if (!response.ok) throw new Error(`Tavily answered ${response.status}`);
  const parsed = tavilyAnswer.safeParse(await response.json());
  if (!parsed.success) throw new Error(`Tavily answered an unexpected shape: ${parsed.error.issues[0]?.message}`);
  return parsed.data.results.map((result) => ({
    title: result.title,
    url: result.url,
    date: result.published_date ?? null,
    snippet: result.content?.slice(0, 300) ?? null,
  }));
}
