import type { BatchedKeyCheck } from '../keys/batched-key.ts';
import { searchAgents } from '../search/agent-search.ts';
import type { AgentSearchInput, AgentSearchResult } from '../search/agent-search-types.ts';
import type { SemanticSource } from '../search/semantic-source-types.ts';
import type { SqlRunner } from '../search/sql-runner.ts';
import { fanOutSearch } from './fan-out-search.ts';
import type { ShardSet } from './shard-set.ts';

/**
 * POST /v1/search/agents over the registry's shards. `home` is the home database's runner, reading the
 * caller's key in its first batch (the route stores the session through it afterwards).
 * One shard: the search runs there, its costly statements gated on the key in that first batch, as ever.
 * Several: one batch on home reads the key and the session's start (shards hold neither), then the search
 * fans out over every shard's replica session.
 */
export async function searchShards(
  shards: ShardSet,
  home: SqlRunner,
  check: BatchedKeyCheck,
  semantic: SemanticSource | null,
  input: AgentSearchInput,
): Promise<AgentSearchResult> {
  if (shards.all.length === 1)
    return searchAgents(home, semantic, { ...input, gate: (params) => check.gate((value) => params.add(value)) });
  // A refused key throws here (keyedRunner), before any shard is asked.
  const [sessions] = (await home.batch([
    { sql: 'SELECT started_at FROM search_sessions WHERE search_id = ?1', params: [input.searchId] },
  ])) as [{ started_at: string }[]];
  const startedAt = sessions[0]?.started_at ?? input.startedAt;
  return fanOutSearch(shards.readers(), { ...input, startedAt }, semantic);
}
