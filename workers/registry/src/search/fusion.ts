import type { SemanticHit } from './semantic.ts';
import type { SqlParams } from './sql-params.ts';
import type { CoveredGroup } from './text/fts-query.ts';

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
 * Coverage: a lexical candidate's normalised bm25 is scaled by COVERAGE_FLOOR + (1 − COVERAGE_FLOOR) × the share
 * of the request's words (each with its alternatives) it matches, so one shared surface word ("golf" in a request
 * about a car called Golf) cannot outrank an agent matching most of the task, and a lexical match of one word in
 * five leaves room to the semantic evidence. bm25 alone sums per word: a rare word in a heavy field won alone.
 * Measured on the development sets (docs/decisions/0184): judged set MRR 0.941 without, 0.962 with a floor of 0.25
 * (before the concept-strength change).
 */
const COVERAGE_FLOOR = 0.25;
/**
 * Lexical candidates whose coverage is counted, the best by bm25; the rest keep the floor. Each count costs one FTS5
 * lookup per word (about 17 µs on SQLite): counted for all ~350 candidates, a hybrid search took twice as long.
 */
const COVERED_CANDIDATES = 40;

/** `sem` (rid, sem_score): the semantic hits, keyed by rowid; read by every ranking of the statement (fusionSql). */
export function semanticHitsCte(semantic: readonly SemanticHit[], params: SqlParams): string {
  const hits = params.add(JSON.stringify(semantic.map((hit) => ({ address: hit.address, strength: hit.strength }))));
  return `sem AS MATERIALIZED (SELECT a.rowid AS rid, json_extract(j.value, '$.strength') AS sem_score
        FROM json_each(${hits}) j CROSS JOIN agents a ON a.address = json_extract(j.value, '$.address'))`;
}

/**
 * After `hits (rid, text_score)` and `sem` (semanticHitsCte), `lex`, `cand` and `cov` (rid, n: the weights of the
 * request's word groups, whose FTS5 expressions are `groups`, each of the COVERED_CANDIDATES best lexical
 * candidates matches); the fused score over `l` (lex), `s` (sem) and `v` (cov). Names take `prefix`, so one
 * statement can rank two sets of matches (agent-text-sql.ts: a narrowed search's tier and the rest); `semWhen`,
 * SQL that, false, leaves the semantic hits out of the candidates (a ranking the statement does not need).
 * `sem` is materialised and keyed by rowid (agents' address index finds each hit once): read as a plain CTE, its
 * JSON was parsed again for every candidate and every agent's facts scanned to map addresses, which was most of a
 * hybrid search's cost. `lex` is materialised too: `cand`, `cov` and the score read it.
 */
export function fusionSql(
  groups: readonly CoveredGroup[],
  params: SqlParams,
  { prefix, semWhen }: { prefix: string; semWhen?: string },
): { ctes: string; score: string } {
  // One FTS5 lookup per group and covered candidate (rowid-restricted MATCH), summed: D1 refuses a compound SELECT
  // of more than a few terms.
  // One group: every lexical candidate matched it (the FTS query is that group), so nothing is looked up. Each
  // lookup of a typed prefix merges every completion's postings (the FTS index keeps prefixes of 2 and 3 letters
  // only): 40 of them made "summ" at 100k agents cost 75 ms instead of 20.
  const matched =
    groups.length === 1
      ? ['1']
      : groups.map(
          (group) =>
            `${group.weight} * (SELECT count(*) FROM search_agents_fts WHERE search_agents_fts MATCH ${params.add(group.expression)} AND rowid = t.rid)`,
        );
  const ctes = `${prefix}lex AS MATERIALIZED (SELECT rid, text_score / max(text_score) OVER () AS lex_score FROM ${prefix}hits),
      ${prefix}cand AS (SELECT rid FROM ${prefix}lex UNION SELECT rid FROM sem${semWhen ? ` WHERE ${semWhen}` : ''}),
      ${prefix}cov AS (SELECT t.rid AS rid, ${matched.length ? matched.join(' + ') : '0'} AS n
        FROM (SELECT rid FROM ${prefix}lex ORDER BY lex_score DESC, rid LIMIT ${COVERED_CANDIDATES}) t)`;
  // No groups (nothing to cover): bm25 as it is.
  const weights = groups.reduce((sum, group) => sum + group.weight, 0);
  const coverage = groups.length ? `(${COVERAGE_FLOOR} + ${1 - COVERAGE_FLOOR} * coalesce(v.n, 0) * 1.0 / ${weights})` : '1';
  return { ctes, score: `(coalesce(l.lex_score, 0) * ${coverage} + ${SEMANTIC_WEIGHT} * coalesce(s.sem_score, 0))` };
}
