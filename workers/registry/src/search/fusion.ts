import type { SemanticHit } from './semantic.ts';
import type { SqlParams } from './sql-params.ts';

/**
 * Hybrid ranking: the lexical and the semantic evidence of each candidate, fused as a weighted sum of
 * normalised scores — bm25 over the best bm25 of the query (0–1) plus SEMANTIC_WEIGHT × the semantic
 * source's strength (0–1, hit.strength). The same for both sources (Vectorize, concept vectors).
 * Reciprocal-rank fusion was measured first and lost (docs/decisions.md): it gives an agent ranked fifth by a
 * single stray word as much as the best lexical match, so a weak semantic list outvoted exact keywords.
 */
const SEMANTIC_WEIGHT = 2;

/**
 * Lexical matches fused, the best by bm25: bounds a hybrid search's work whatever the registry's size (fusing
 * every match of a long request read 10,000 agents' facts at 10,000 agents). An agent below them can still be
 * found as a semantic hit. A hybrid search's `total` counts these candidates and the semantic hits, so paging
 * by it reaches every agent it ranks.
 */
export const LEXICAL_CANDIDATES = 300;

/**
 * `sem` (before `hits`, which reads it) and, after `hits (rid, text_score)`, `lex` and `cand`; the fused score over
 * `l` (lex) and `s` (sem). `sem` is materialised and keyed by rowid (agents' address index finds each hit once):
 * read as a plain CTE, its JSON was parsed again for every candidate and every agent's facts scanned to map
 * addresses, which was most of a hybrid search's cost.
 */
export function fusionSql(semantic: readonly SemanticHit[], params: SqlParams): { sem: string; ctes: string; score: string } {
  const hits = params.add(JSON.stringify(semantic.map((hit) => ({ address: hit.address, strength: hit.strength }))));
  const sem = `sem AS MATERIALIZED (SELECT a.rowid AS rid, json_extract(j.value, '$.strength') AS sem_score
        FROM json_each(${hits}) j CROSS JOIN agents a ON a.address = json_extract(j.value, '$.address'))`;
  const ctes = `lex AS (SELECT rid, text_score / max(text_score) OVER () AS lex_score FROM hits),
      cand AS (SELECT rid FROM lex UNION SELECT rid FROM sem)`;
  return { sem, ctes, score: `(coalesce(l.lex_score, 0) + ${SEMANTIC_WEIGHT} * coalesce(s.sem_score, 0))` };
}
