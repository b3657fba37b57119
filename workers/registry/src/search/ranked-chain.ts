import type { AgentSort } from '../../../../schemas/search.ts';
import type { AgentSearchInput } from './agent-search-types.ts';
import { filterConditions, type VisibilityOptions } from './agent-filters.ts';
import { SORT_COLUMNS, whereClause } from './agent-order.ts';
import { fusionSql, LEXICAL_CANDIDATES } from './fusion.ts';
import { bm25Expression, feedbackFactor } from './ranking.ts';
import type { SemanticHit } from './semantic.ts';
import type { SqlParams } from './sql-params.ts';
import type { CoveredGroup } from './text/fts-query.ts';

/** The CTEs that rank a set of text matches (agent-text-sql.ts writes the statements around them). */

/** How a search's visibility reaches its ranking: `listed`, the FTS expression keeps only listed agents, so no filter is left to apply. */
export interface RankedVisibility {
  visibility: VisibilityOptions;
  listed: boolean;
  onlyListed: boolean;
}

/** What of a search's plan its ranking reads (agent-text-sql.ts, TextPlan): hybrid's semantic hits and word groups. */
interface RankedPlan {
  semantic?: readonly SemanticHit[];
  groups?: readonly CoveredGroup[];
}

/** One ranking's CTE names start with `prefix`; `semWhen`, SQL that, false, leaves the semantic hits out of it. */
export interface ChainNames {
  prefix: string;
  semWhen?: string;
}

/** `clicks` (address, n): the query's clicks up to the search session's start; every ranking of the statement reads it. */
export function clicksCte(input: AgentSearchInput, params: SqlParams): string {
  const { searchId, queryKey, startedAt } = input;
  return `clicks AS (
      SELECT address, COUNT(*) AS n FROM search_clicks
      WHERE query_key = ${params.add(queryKey)}
        AND clicked_at <= coalesce((SELECT started_at FROM search_sessions WHERE search_id = ${params.add(searchId)}), ${params.add(startedAt)})
      GROUP BY address)`;
}

/**
 * CTEs down to `kept` (with the prefix): the matches that pass the filters, scored (and cut off), unordered.
 * `matches` selects each match's `rid` and `text_score` (scoredFts). Reads `clicks` and, hybrid, `sem`.
 */
export function rankedChain(
  input: AgentSearchInput,
  plan: RankedPlan,
  sort: AgentSort,
  matches: string,
  params: SqlParams,
  { visibility, listed, onlyListed }: RankedVisibility,
  names: ChainNames,
): string {
  const { request } = input;
  const { prefix } = names;
  const conditions = listed ? [] : filterConditions(visibility, params);

  let candidates: string;
  let scoreExpression: string;
  let from: string;
  if (plan.semantic) {
    const fusion = fusionSql(plan.groups ?? [], params, names);
    candidates = `${hybridHits(matches, onlyListed ? [] : conditions, params, prefix)},
      ${fusion.ctes}`;
    scoreExpression = fusion.score;
    from = `FROM ${prefix}cand cand CROSS JOIN search_agent_facts f ON f.agent_rowid = cand.rid LEFT JOIN ${prefix}lex l ON l.rid = f.agent_rowid
      LEFT JOIN sem s ON s.rid = f.agent_rowid LEFT JOIN ${prefix}cov v ON v.rid = f.agent_rowid`;
  } else {
    candidates = `${prefix}hits AS (${matches})`;
    scoreExpression = 'h.text_score';
    // Relevancy over listed agents reads only what ranking needs, from the narrow search_agent_rank (0005);
    // other sorts and filters read search_agent_facts. CROSS JOIN fixes the loop order: matches outside, looked
    // up by rowid. Left to the planner, the listed-agents index can win and run the FTS query once per agent.
    const table = listed && sort === 'relevancy' ? 'search_agent_rank' : 'search_agent_facts';
    from = `FROM ${prefix}hits h CROSS JOIN ${table} f ON f.agent_rowid = h.rid`;
  }
  const scored = `${prefix}scored AS (
      SELECT f.agent_rowid AS rid, f.address AS address, coalesce(c.n, 0) AS clicks,
        ${scoreExpression} * ${feedbackFactor('coalesce(c.n, 0)')} AS score,
        ${sort === 'relevancy' ? 'NULL' : SORT_COLUMNS[sort]} AS sort_key
      ${from} LEFT JOIN clicks c ON c.address = f.address
      ${whereClause(conditions)})`;
  const cutoff = request.cutoff ?? 0;
  // The best score comes from a window, not a second read of `scored`: bm25() only runs inside its FTS query.
  const kept =
    cutoff > 0
      ? `${prefix}kept AS (SELECT * FROM (SELECT *, max(score) OVER () AS best FROM ${prefix}scored) WHERE score >= ${params.add(cutoff)} * best)`
      : `${prefix}kept AS (SELECT * FROM ${prefix}scored)`;
  return `${candidates}, ${scored}, ${kept}`;
}

/**
 * Hybrid search's lexical side: the LEXICAL_CANDIDATES best matches by bm25 that pass the filters (fusion.ts),
 * so fusion reads the facts of a bounded number of agents however many match a long request, and the bm25 of
 * the semantic hits below them, so no hit loses its lexical evidence. Every match is scored once, in one FTS
 * query (`matched`), and both read from it: looking each semantic hit up in the FTS index ran the query again
 * per hit, and a typed prefix without a prefix index ("summ"*) merged every completion's postings each time
 * (50 hits: 200–300 ms at 100,000 agents). The default visibility is filtered by the FTS expression; other
 * filters look up each match's facts, as lexical search does.
 */
function hybridHits(matches: string, conditions: string[], params: SqlParams, prefix: string): string {
  const facts = conditions.length ? 'CROSS JOIN search_agent_facts f ON f.agent_rowid = m.rid' : '';
  return `${prefix}matched AS MATERIALIZED (${matches}),
    ${prefix}best AS (SELECT m.rid, m.text_score FROM ${prefix}matched m ${facts} ${whereClause(conditions)}
      ORDER BY m.text_score DESC, m.rid LIMIT ${params.add(LEXICAL_CANDIDATES)}),
    ${prefix}hits AS (SELECT rid, text_score FROM ${prefix}best UNION ALL SELECT rid, text_score FROM ${prefix}matched
      WHERE rid IN (SELECT rid FROM sem EXCEPT SELECT rid FROM ${prefix}best))`;
}

/** An FTS query's matches, each with its bm25 text score: `rid`, `text_score`. */
export function scoredFts(table: string, match: string): string {
  return `SELECT rowid AS rid, -${bm25Expression(table)} AS text_score FROM ${table} WHERE ${table} MATCH ${match}`;
}
