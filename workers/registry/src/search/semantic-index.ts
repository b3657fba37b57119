import { agentVector } from './concepts/concept-vectors.ts';
import type { SqlRunner } from './sql-runner.ts';
import { agentEmbedding, type AgentText, vectorRow } from './vectors/vector-index.ts';

/**
 * Writes the offline semantic source's index (0014_search_semantic_index.sql) for agents whose text changed:
 * their word-vector embedding (quantised, bucketed) and their concept vector. The schema's triggers mark every
 * written agent pending; registration indexes its agent straight after the write, the cron drains the rest
 * (agents written by other paths, and those registered before the index).
 */

/** Agents indexed per call when draining: one batch of statements, well inside an invocation's CPU. */
const SEMANTIC_INDEX_BATCH = 200;

interface PendingRow extends AgentText {
  rid: number;
  mark: number;
}

/** Read from the full-text row: the text the lexical ranking reads, so both sides see the same agent. */
const PENDING = `SELECT p.agent_rowid AS rid, p.mark, t.name, t.tags, t.description, t.use_cases, t.functions, t.readme
  FROM search_semantic_pending p LEFT JOIN search_agents_fts t ON t.rowid = p.agent_rowid`;

/** A statement per step, each over all the agents (JSON), each acting only where the agent's mark is unchanged. */
const STILL_PENDING = `FROM json_each(?1) j CROSS JOIN search_semantic_pending p
  ON p.agent_rowid = json_extract(j.value, '$.rid') AND p.mark = json_extract(j.value, '$.mark')`;
const WRITES = [
  `DELETE FROM search_agent_vectors WHERE agent_rowid IN (SELECT p.agent_rowid ${STILL_PENDING})`,
  `DELETE FROM search_agent_concepts WHERE agent_rowid IN (SELECT p.agent_rowid ${STILL_PENDING})`,
  `INSERT INTO search_agent_vectors (bucket, centrality, agent_rowid, scale, code)
     SELECT json_extract(j.value, '$.vector.bucket'), json_extract(j.value, '$.vector.centrality'), p.agent_rowid,
       json_extract(j.value, '$.vector.scale'), json_extract(j.value, '$.vector.code')
     ${STILL_PENDING} WHERE json_extract(j.value, '$.vector') IS NOT NULL`,
  `INSERT INTO search_agent_concepts (concept, weight, agent_rowid)
     SELECT json_extract(c.value, '$[0]'), json_extract(c.value, '$[1]'), p.agent_rowid
     ${STILL_PENDING} CROSS JOIN json_each(j.value, '$.concepts') c`,
  `DELETE FROM search_semantic_pending WHERE agent_rowid IN (SELECT p.agent_rowid ${STILL_PENDING})`,
];

/**
 * Indexes up to `limit` pending agents (only `address`'s, when given); returns how many. An agent rewritten
 * while it was being indexed keeps its new mark and stays pending.
 */
export async function indexPendingAgents(
  runner: SqlRunner,
  { limit = SEMANTIC_INDEX_BATCH, address }: { limit?: number; address?: string } = {},
) {
  const pending = await runner.all<PendingRow>(
    address
      ? { sql: `${PENDING} WHERE p.agent_rowid = (SELECT rowid FROM agents WHERE address = ?1)`, params: [address] }
      : { sql: `${PENDING} LIMIT ?1`, params: [limit] },
  );
  if (pending.length === 0) return 0;
  const entries = pending.map((row) => ({
    rid: row.rid,
    mark: row.mark,
    vector: vectorRow(agentEmbedding(row)),
    concepts: [...agentVector(row)],
  }));
  const json = JSON.stringify(entries);
  await runner.batch(WRITES.map((sql) => ({ sql, params: [json] })));
  return pending.length;
}

/** Indexes every pending agent: for seeding a registry straight into SQL (tests, benches). */
export async function indexAllPendingAgents(runner: SqlRunner): Promise<number> {
  let total = 0;
  for (let done = await indexPendingAgents(runner); done > 0; done = await indexPendingAgents(runner)) total += done;
  return total;
}
