import type { AgentSort } from '../../../../schemas/search.ts';
import { AGENT_RECORD_SELECTION } from '../agents/row.ts';
import type { AgentSearchInput } from './agent-search-types.ts';
import { filterConditions, listsOnlyListed, type VisibilityOptions } from './agent-filters.ts';
import { SORT_COLUMNS, whereClause, type Window } from './agent-order.ts';
import { PREFERRED_CANDIDATES } from './bounded-candidates.ts';
import { fusionSql, LEXICAL_CANDIDATES } from './fusion.ts';
import { bm25Expression, feedbackFactor } from './ranking.ts';
import { DEFAULT_SEARCH_BOUNDS } from './search-bounds.ts';
import type { SemanticHit } from './semantic.ts';
import type { CoveredGroup } from './text/fts-query.ts';
import type { SqlStatement } from './sql-runner.ts';
import { SqlParams } from './sql-params.ts';
import { agentTextExpression, listedOnlyExpression } from './text/fts-query.ts';

/**
 * The statements of a text search: `page` (the window's agents, ranked) and `count` (the total). For
 * the default visibility the count never computes bm25 nor leaves the FTS index: `(words) NOT
 * listing:unlisted` counts listed matches (0003_search_listing.sql), and runs beside the page; it stops
 * past the exact-total bound (`over`: more match than `total` says). Semantic candidates and the cutoff need
 * the ranking to be counted, so the page's rows carry the total (`total`, a window count over the ranked
 * matches: one pass instead of two), and `count` runs alone only for a page past the last match. So do
 * filters, unless the search may be bounded to preferred agents, whose ranking does not see every match.
 */
export interface TextPlan {
  mode: 'lexical' | 'phrase' | 'hybrid' | 'lexical-fallback';
  /** The FTS5 expression of the user's words (fts-query.ts). */
  match: string;
  semantic?: SemanticHit[];
  /** Each query word's own FTS5 expression (with its alternatives): hybrid ranking counts how many a candidate matches. */
  groups?: CoveredGroup[];
  /**
   * SQL that must be true for the statements to match anything; false, they match nothing at once. Lets a
   * search run speculatively in the batch that decides whether it is the right one (agent-search.ts).
   */
  guard?: (params: SqlParams) => string;
  /**
   * Like `guard`, true when a speculative search is the right one (expand.ts, plainQueryGuard). The count of
   * listed matches does not read it: it reads at most the exact-total bound's matches, and a wrong one is never
   * used, while the guard reads the vocabulary again (each lookup counts the word's doclist).
   */
  speculation?: (params: SqlParams) => string;
  /**
   * SQL that, true, narrows the ranking to preferred agents, read from their own index (bounded-candidates.ts);
   * the count still counts every match, up to the exact-total bound. Only searches whose visibility lists just
   * listed agents are narrowed.
   */
  bounded?: (params: SqlParams) => string;
  /**
   * A SELECT of one row, `pass` (the guard and the speculation) and `narrow` (the narrowing), that reads the
   * vocabulary once for all: the search may be narrowed, and this decides it instead of `guard` and `bounded`.
   */
  gateRow?: (params: SqlParams) => string;
}

export interface TextStatements {
  page: SqlStatement;
  /** One row: `total`, and `over` (1 when more than the bound match and `total` is the bound). */
  count: SqlStatement;
  /** The page's rows carry the total in `total`: leave `count` out of the batch. */
  countInPage: boolean;
}

const FTS = 'search_agents_fts';
/** The preferred agents' own index (0017_search_preferred_index.sql): what a narrowed search ranks. */
const PREFERRED_FTS = 'search_preferred_fts';
/** Matches no row and costs nothing: an empty FTS5 phrase. */
const MATCH_NOTHING = `'""'`;

export function textStatements(input: AgentSearchInput, plan: TextPlan, sort: AgentSort, window: Window): TextStatements {
  const { request } = input;
  const visibility = { filters: request.filters, excludeGeoAgents: request.exclude_geo_agents ?? false };
  const onlyListed = listsOnlyListed(visibility);
  // `listed`: no filter is left to apply. Hybrid ranking still filters its semantic hits, which the FTS expression does not reach.
  const listed = onlyListed && !plan.semantic;
  const expression = onlyListed ? listedOnlyExpression(plan.match) : agentTextExpression(plan.match);
  // Preferred agents are listed ones: a visibility that also shows inactive agents is never narrowed.
  const boundable = Boolean(plan.bounded ?? plan.gateRow) && filterConditions(visibility, new SqlParams()).includes('f.is_active = 1');
  const guardOf = (params: SqlParams, speculation: boolean) =>
    [...(speculation && plan.speculation ? [plan.speculation(params)] : []), ...(plan.guard ? [plan.guard(params)] : [])].join(' AND ');
  const guarded = (params: SqlParams, value: string, speculation = true) => {
    const guard = guardOf(params, speculation);
    return guard ? `(CASE WHEN ${guard} THEN ${value} ELSE ${MATCH_NOTHING} END)` : value;
  };
  const matchOf = (params: SqlParams, speculation = true) => guarded(params, params.add(expression), speculation);
  // Narrowed or not is decided in SQL (the vocabulary read in the same statement): each index is asked for the
  // expression or for nothing, which costs nothing. Preferred agents are listed: no `listing` filter is needed.
  // The guard and the decision are read once, in `gate`: each vocabulary lookup of a word counts its doclist
  // (fts5vocab), 14 ms for "data" at a million agents, and each FTS query would evaluate them again.
  const gated = (params: SqlParams) => {
    if (!boundable) return { gate: '', matches: scoredFts(FTS, matchOf(params)) };
    const row = plan.gateRow?.(params) ?? `SELECT ${guardOf(params, true) || '1'} AS pass, ${plan.bounded!(params)} AS narrow`;
    const gate = `gate AS MATERIALIZED (${row})`;
    const when = (narrow: boolean) => `(SELECT pass AND ${narrow ? 'narrow' : 'NOT narrow'} FROM gate)`;
    const preferred = `(CASE WHEN ${when(true)} THEN ${params.add(agentTextExpression(plan.match))} ELSE ${MATCH_NOTHING} END)`;
    const every = `(CASE WHEN ${when(false)} THEN ${params.add(expression)} ELSE ${MATCH_NOTHING} END)`;
    // The best PREFERRED_CANDIDATES by bm25 are ranked: the facts of 15,000 preferred matches of "data", looked
    // up one by one in a million rows, cost more than their bm25 (the quality prior of preferred agents varies by
    // less than a fifth, so the page's agents are among them).
    const best = `SELECT * FROM (${scoredFts(PREFERRED_FTS, preferred)} ORDER BY text_score DESC, rid LIMIT ${params.add(PREFERRED_CANDIDATES)})`;
    return { gate: `${gate}, `, matches: `${best} UNION ALL ${scoredFts(FTS, every)}` };
  };

  const params = new SqlParams();
  const { gate, matches } = gated(params);
  const chain = gate + rankedChain(input, plan, sort, matches, params, visibility, { listed, onlyListed });
  const cutoff = request.cutoff ?? 0;
  const countInPage = Boolean(plan.semantic) || cutoff > 0 || (!listed && !boundable);
  let count: SqlStatement;
  if (plan.semantic || cutoff > 0) {
    // Semantic candidates and the cutoff (relative to the best score) need the ranking to be counted.
    count = { sql: `WITH ${chain} SELECT count(*) AS total, 0 AS over FROM kept`, params: [...params.values] };
  } else {
    const countParams = new SqlParams();
    const match = matchOf(countParams, !listed);
    const matches = listed
      ? `SELECT 1 FROM ${FTS} WHERE ${FTS} MATCH ${match}`
      : `SELECT 1 FROM ${FTS} h CROSS JOIN search_agent_facts f ON f.agent_rowid = h.rowid
                WHERE ${FTS} MATCH ${match} AND ${filterConditions(visibility, countParams).join(' AND ')}`;
    // The page's rows carry an exact total: a page past the last match is counted exactly too.
    const sql = countInPage
      ? `SELECT count(*) AS total, 0 AS over FROM (${matches})`
      : boundedCountSql(matches, input.bounds?.exactTotalMax ?? DEFAULT_SEARCH_BOUNDS.exactTotalMax, countParams);
    count = { sql, params: countParams.values };
  }

  const sortKey = sort === 'relevancy' ? 'score' : 'sort_key';
  const dir = window.descending ? 'DESC' : 'ASC';
  const tieDir = sort === 'relevancy' ? (window.descending ? 'ASC' : 'DESC') : dir;
  const orderOf = (table: string) => `${table}${sortKey} ${dir}, ${table}address ${tieDir}`;
  const ranked = countInPage ? '(SELECT *, count(*) OVER () AS total FROM kept)' : 'kept';
  const total = countInPage ? ', total' : '';
  const page = `WITH ${chain},
    page AS (SELECT rid, score, clicks, sort_key, address${total} FROM ${ranked} ORDER BY ${orderOf('')} LIMIT ${params.add(window.limit)} OFFSET ${params.add(window.offset)})
    SELECT ${AGENT_RECORD_SELECTION}, p.rid AS rid, p.score AS score, p.clicks AS clicks${countInPage ? ', p.total AS total' : ''}
    FROM page p CROSS JOIN agents a ON a.rowid = p.rid ORDER BY ${orderOf('p.')}`;
  return { page: { sql: page, params: params.values }, count, countInPage };
}

/**
 * CTEs down to `kept`: the matches that pass the filters, scored (and cut off), unordered. `matches` selects
 * each match's `rid` and `text_score` (scoredFts). `listed`: the FTS expression keeps only listed agents, so no
 * filter is left to apply.
 */
function rankedChain(
  input: AgentSearchInput,
  plan: TextPlan,
  sort: AgentSort,
  matches: string,
  params: SqlParams,
  visibility: VisibilityOptions,
  { listed, onlyListed }: { listed: boolean; onlyListed: boolean },
): string {
  const { request, searchId, queryKey, startedAt } = input;
  const conditions = listed ? [] : filterConditions(visibility, params);
  const clicks = `clicks AS (
      SELECT address, COUNT(*) AS n FROM search_clicks
      WHERE query_key = ${params.add(queryKey)}
        AND clicked_at <= coalesce((SELECT started_at FROM search_sessions WHERE search_id = ${params.add(searchId)}), ${params.add(startedAt)})
      GROUP BY address)`;

  let candidates: string;
  let scoreExpression: string;
  let from: string;
  if (plan.semantic) {
    const fusion = fusionSql(plan.semantic, plan.groups ?? [], params);
    candidates = `${fusion.sem}, ${hybridHits(matches, onlyListed ? [] : conditions, params)},
      ${fusion.ctes}`;
    scoreExpression = fusion.score;
    from =
      'FROM cand CROSS JOIN search_agent_facts f ON f.agent_rowid = cand.rid LEFT JOIN lex l ON l.rid = f.agent_rowid LEFT JOIN sem s ON s.rid = f.agent_rowid LEFT JOIN cov v ON v.rid = f.agent_rowid';
  } else {
    candidates = `hits AS (${matches})`;
    scoreExpression = 'h.text_score';
    // Relevancy over listed agents reads only what ranking needs, from the narrow search_agent_rank (0005);
    // other sorts and filters read search_agent_facts. CROSS JOIN fixes the loop order: matches outside, looked
    // up by rowid. Left to the planner, the listed-agents index can win and run the FTS query once per agent.
    const table = listed && sort === 'relevancy' ? 'search_agent_rank' : 'search_agent_facts';
    from = `FROM hits h CROSS JOIN ${table} f ON f.agent_rowid = h.rid`;
  }
  const scored = `scored AS (
      SELECT f.agent_rowid AS rid, f.address AS address, coalesce(c.n, 0) AS clicks,
        ${scoreExpression} * ${feedbackFactor('coalesce(c.n, 0)')} AS score,
        ${sort === 'relevancy' ? 'NULL' : SORT_COLUMNS[sort]} AS sort_key
      ${from} LEFT JOIN clicks c ON c.address = f.address
      ${whereClause(conditions)})`;
  const cutoff = request.cutoff ?? 0;
  // The best score comes from a window, not a second read of `scored`: bm25() only runs inside its FTS query.
  const kept =
    cutoff > 0
      ? `kept AS (SELECT * FROM (SELECT *, max(score) OVER () AS best FROM scored) WHERE score >= ${params.add(cutoff)} * best)`
      : 'kept AS (SELECT * FROM scored)';
  return `${candidates}, ${clicks}, ${scored}, ${kept}`;
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
function hybridHits(matches: string, conditions: string[], params: SqlParams): string {
  const facts = conditions.length ? 'CROSS JOIN search_agent_facts f ON f.agent_rowid = m.rid' : '';
  return `matched AS MATERIALIZED (${matches}),
    best AS (SELECT m.rid, m.text_score FROM matched m ${facts} ${whereClause(conditions)}
      ORDER BY m.text_score DESC, m.rid LIMIT ${params.add(LEXICAL_CANDIDATES)}),
    hits AS (SELECT rid, text_score FROM best UNION ALL SELECT rid, text_score FROM matched
      WHERE rid IN (SELECT rid FROM sem EXCEPT SELECT rid FROM best))`;
}

/** An FTS query's matches, each with its bm25 text score: `rid`, `text_score`. */
function scoredFts(table: string, match: string): string {
  return `SELECT rowid AS rid, -${bm25Expression(table)} AS text_score FROM ${table} WHERE ${table} MATCH ${match}`;
}

/** A count of `matches` (a SELECT) that reads at most `bound` + 1 of them: `total` (at most `bound`) and `over`. */
export function boundedCountSql(matches: string, bound: number, params: SqlParams): string {
  const limit = params.add(bound + 1);
  const max = params.add(bound);
  return `SELECT min(n, ${max}) AS total, n > ${max} AS over FROM (SELECT count(*) AS n FROM (${matches} LIMIT ${limit}))`;
}
