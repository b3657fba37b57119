import type { SemanticPlan } from '../semantic-source-types.ts';
import { SqlParams } from '../sql-params.ts';
import { queryConcepts } from './concept-vectors.ts';

/**
 * The offline semantic source's concept half (offline-source.ts): the query's concept vector against the agents'
 * concept vectors stored at write time (search_agent_concepts, semantic-index.ts). Candidates are each of the
 * query's strongest concepts' agents, strongest first, up to CONCEPT_CANDIDATES a concept: the work is bounded
 * whatever the registry's size. Runs wherever D1 does: the model is the lexicon shipped in code.
 */

/** Agents read per query concept: every agent of a concept in a mid-sized registry, the strongest of a large one's. */
const CONCEPT_CANDIDATES = 200;
/** Query concepts whose agents are read; every query concept still counts in the score. */
const CONCEPTS_READ = 6;
/** Hits handed to fusion, as many as Vectorize is asked for. */
const CONCEPT_TOP_K = 50;
/** Cosine under which an agent shares too little of the request's meaning to count. */
const CONCEPT_MIN_SIMILARITY = 0.2;

export function conceptPlan(text: string, gate?: (params: SqlParams) => string): SemanticPlan {
  const { vector: query, wordShare } = queryConcepts(text);
  if (query.size === 0) return { statements: [], hits: () => [] };
  const concepts = [...query.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  const params = new SqlParams();
  const json = params.add(JSON.stringify(concepts));
  const read = params.add(CONCEPTS_READ);
  const candidates = params.add(CONCEPT_CANDIDATES);
  const gated = gate ? `WHERE ${gate(params)}` : '';
  // `cand`: each read concept's agents down to its CONCEPT_CANDIDATES-th strongest (`floor`, then `floor_rid` among
  // equal weights: agents with the same text tie; found by walking that many index entries): one range scan a concept. Then every query concept counts in the cosine.
  // `qc`: the query's concepts parsed once, in concept order, each looked up in a candidate's index entries (summed in
  // the order the index holds them); joined as a view of json_each, the JSON was parsed again for every row of every candidate.
  const sql = `WITH q AS MATERIALIZED (SELECT j.key AS ord, json_extract(j.value, '$[0]') AS concept, json_extract(j.value, '$[1]') AS weight
          FROM json_each(${json}) j ${gated}),
        reads AS MATERIALIZED (SELECT concept,
            coalesce((SELECT weight FROM search_agent_concepts WHERE concept = q.concept
              ORDER BY weight DESC, agent_rowid DESC LIMIT 1 OFFSET ${candidates} - 1), -1) AS floor,
            coalesce((SELECT agent_rowid FROM search_agent_concepts WHERE concept = q.concept
              ORDER BY weight DESC, agent_rowid DESC LIMIT 1 OFFSET ${candidates} - 1), 0) AS floor_rid
          FROM q WHERE ord < ${read}),
        cand AS MATERIALIZED (SELECT DISTINCT c.agent_rowid FROM reads r
          CROSS JOIN search_agent_concepts c ON c.concept = r.concept AND (c.weight, c.agent_rowid) >= (r.floor, r.floor_rid)),
        qc AS MATERIALIZED (SELECT concept, weight FROM q ORDER BY concept),
        scored AS (SELECT cand.agent_rowid AS rid, sum(c.weight * qc.weight) AS similarity
          FROM cand CROSS JOIN qc CROSS JOIN search_agent_concepts c ON c.agent_rowid = cand.agent_rowid AND c.concept = qc.concept
          GROUP BY cand.agent_rowid)
      SELECT f.address, s.similarity FROM scored s CROSS JOIN search_agent_facts f ON f.agent_rowid = s.rid
      WHERE s.similarity >= ${params.add(CONCEPT_MIN_SIMILARITY)} ORDER BY s.similarity DESC, f.address LIMIT ${params.add(CONCEPT_TOP_K)}`;
  return {
    statements: [{ sql, params: params.values }],
    hits: ([rows = []]) =>
      (rows as { address: string; similarity: number }[]).map((row) => ({
        address: row.address,
        similarity: row.similarity,
        strength: row.similarity * wordShare,
      })),
  };
}
