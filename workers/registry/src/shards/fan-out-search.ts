import { SEARCH_LIMIT_DEFAULT } from '../../../../schemas/search.ts';
import { searchAgents } from '../search/agent-search.ts';
import type { AgentSearchInput, AgentSearchResult } from '../search/agent-search-types.ts';
import type { SqlRunner } from '../search/sql-runner.ts';
import { searchOrder } from './merge-order.ts';

/**
 * Agent search over agents sharded by address (docs/scale.md): every shard answers the same search for the
 * top offset + limit of its own agents, in parallel; the pages are merged in the search's order and the window
 * cut from the merge; the total is the sum of the shards' totals (an estimate when any shard's is). Memory is shards × (offset + limit) rows,
 * never the matches. Exact wherever the order is the agents' own facts (sorts, browsing, filters, totals);
 * text relevancy is each shard's bm25, whose word statistics are the shard's, not the registry's (docs/scale.md).
 *
 * `input.startedAt` must be the session's start (read from the home database by the caller): the shards hold
 * clicks, by the clicked agent's address, but not the sessions.
 */
export async function fanOutSearch(shards: readonly SqlRunner[], input: AgentSearchInput): Promise<AgentSearchResult> {
  const { request } = input;
  const offset = request.offset ?? 0;
  const limit = request.limit ?? SEARCH_LIMIT_DEFAULT;
  const perShard = { ...request, offset: 0, limit: offset + limit };
  const results = await Promise.all(shards.map((shard) => searchAgents(shard, null, { ...input, request: perShard })));
  const merged = results.flatMap((result) => result.rows).sort(searchOrder(request));
  return {
    rows: merged.slice(offset, offset + limit),
    total: results.reduce((sum, result) => sum + result.total, 0),
    // A shard past its exact-total bound counted only up to it: the sum is then a lower bound too.
    totalIsEstimate: results.some((result) => result.totalIsEstimate),
    mode: results[0]?.mode ?? 'browse',
  };
}
