import { SEARCH_LIMIT_DEFAULT } from '../../../../schemas/search.ts';
import { searchAgents } from '../search/agent-search.ts';
import type { AgentSearchInput, AgentSearchResult } from '../search/agent-search-types.ts';
import { DEFAULT_SEARCH_BOUNDS } from '../search/search-bounds.ts';
import type { SemanticSource } from '../search/semantic-source-types.ts';
import type { SqlRunner } from '../search/sql-runner.ts';
import { mergedVocabulary } from './merged-vocabulary.ts';
import { searchOrder } from './merge-order.ts';

/**
 * Agent search over agents sharded by address (docs/scale.md): every shard answers the same search for the
 * top offset + limit of its own agents, in parallel; the pages are merged in the search's order and the window
 * cut from the merge. Memory is shards × (offset + limit) rows, never the matches. Query expansion reads the
 * registry's vocabulary (merged-vocabulary.ts), so every shard matches what one database would. Exact wherever
 * the order is the agents' own facts (sorts, browsing, filters, totals); text relevancy is each shard's bm25,
 * whose word statistics are the shard's, not the registry's (docs/scale.md).
 *
 * `input.startedAt` must be the session's start (read from the home database by the caller): the shards hold
 * clicks, by the clicked agent's address, but not the sessions. No `gate`: shards hold no keys.
 */
export async function fanOutSearch(
  shards: readonly SqlRunner[],
  input: AgentSearchInput,
  semantic: SemanticSource | null = null,
): Promise<AgentSearchResult> {
  const { request } = input;
  const offset = request.offset ?? 0;
  const limit = request.limit ?? SEARCH_LIMIT_DEFAULT;
  const bounds = input.bounds ?? DEFAULT_SEARCH_BOUNDS;
  // Every shard expands the query as one database would: over the registry's vocabulary, counts summed.
  // Each shard uses its preferred tier when the tier fills a page of the client's size, as one database does.
  const perShard = {
    ...input,
    request: { ...request, offset: 0, limit: offset + limit },
    pageLimit: limit,
    vocabulary: mergedVocabulary(shards),
  };
  const results = await Promise.all(shards.map((shard) => searchAgents(shard, semantic, perShard)));
  const merged = results.flatMap((result) => result.rows).sort(searchOrder(request));
  // A shard past the exact-total bound means the registry is past it too: one database answers the bound then.
  const over = results.some((result) => result.totalIsEstimate);
  return {
    rows: merged.slice(offset, offset + limit),
    total: over ? bounds.exactTotalMax : results.reduce((sum, result) => sum + result.total, 0),
    totalIsEstimate: over,
    mode: results[0]?.mode ?? 'browse',
  };
}
