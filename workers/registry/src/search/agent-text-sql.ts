import type { AgentSort } from '../../../../schemas/search.ts';
import { AGENT_RECORD_SELECTION } from '../agents/row.ts';
import type { AgentSearchInput } from './agent-search-types.ts';
import { filterConditions, listsOnlyListed } from './agent-filters.ts';
import { windowOf, type Window } from './agent-order.ts';
import { PREFERRED_CANDIDATES } from './bounded-candidates.ts';
import { semanticHitsCte } from './fusion.ts';
import { type ChainNames, clicksCte, rankedChain, type RankedVisibility, scoredFts } from './ranked-chain.ts';
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
  const ranked: RankedVisibility = { visibility, listed, onlyListed };
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

  const params = new SqlParams();
  const shared = [clicksCte(input, params), ...(plan.semantic ? [semanticHitsCte(plan.semantic, params)] : [])].join(', ');
  const rank = (matches: string, names: ChainNames) => rankedChain(input, plan, sort, matches, params, ranked, names);
  const chain = boundable
    ? narrowedSequence(input, plan, window, params, { expression, shared, rank, guard: guardOf(params, true) })
    : `${shared}, ${rank(scoredFts(FTS, matchOf(params)), { prefix: '' })}, seq AS (SELECT *, 0 AS tier FROM kept)`;
  const cutoff = request.cutoff ?? 0;
  const countInPage = Boolean(plan.semantic) || cutoff > 0 || (!listed && !boundable);
  let count: SqlStatement;
  if (plan.semantic || cutoff > 0) {
    // Semantic candidates and the cutoff (relative to the best score) need the ranking to be counted.
    count = { sql: `WITH ${chain} SELECT count(*) AS total, 0 AS over FROM seq`, params: [...params.values] };
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
  // A narrowed search's tier comes first whatever the direction: one sequence for all its pages.
  const orderOf = (table: string) => `${boundable ? `${table}tier DESC, ` : ''}${table}${sortKey} ${dir}, ${table}address ${tieDir}`;
  const rows = countInPage ? '(SELECT *, count(*) OVER () AS total FROM seq)' : 'seq';
  const total = countInPage ? ', total' : '';
  const page = `WITH ${chain},
    page AS (SELECT rid, score, clicks, sort_key, address, tier${total} FROM ${rows} ORDER BY ${orderOf('')} LIMIT ${params.add(window.limit)} OFFSET ${params.add(window.offset)})
    SELECT ${AGENT_RECORD_SELECTION}, p.rid AS rid, p.score AS score, p.clicks AS clicks, p.tier AS tier${countInPage ? ', p.total AS total' : ''}
    FROM page p CROSS JOIN agents a ON a.rowid = p.rid ORDER BY ${orderOf('p.')}`;
  return { page: { sql: page, params: params.values }, count, countInPage };
}

/**
 * A search that may be narrowed to preferred agents (bounded-candidates.ts), as one sequence for all its pages
 * (docs/decisions/0220): the tier (the best PREFERRED_CANDIDATES preferred matches by bm25, ranked; `tier` 1), then
 * every other match in the full ranking's order (`tier` 0), so paging shows each match once. A tier that does not
 * fill a page of the client's size (a young registry, filters) is not used: every match is ranked, on every page.
 *
 * Narrowed or not is decided in SQL (the vocabulary read in the same statement): each index is asked for the
 * expression or for nothing, which costs nothing. Preferred agents are listed: no `listing` filter is needed. The
 * full ranking runs only for a window the tier does not fill; the guard and the decision are read once, in `gate`:
 * each vocabulary lookup of a word counts its doclist (fts5vocab), 14 ms for "data" at a million agents, and each
 * FTS query would evaluate them again. Ends with `seq`, both rankings' rows with `tier`.
 */
function narrowedSequence(
  input: AgentSearchInput,
  plan: TextPlan,
  window: Window,
  params: SqlParams,
  {
    expression,
    shared,
    rank,
    guard,
  }: { expression: string; shared: string; rank: (matches: string, names: ChainNames) => string; guard: string },
): string {
  const row = plan.gateRow?.(params) ?? `SELECT ${guard || '1'} AS pass, ${plan.bounded!(params)} AS narrow`;
  const tierSize = '(SELECT count(*) FROM tier_rows)';
  const tierWanted = '(SELECT pass AND narrow FROM gate)';
  const restWanted = `(SELECT pass AND (NOT narrow OR ${tierSize} < ${params.add(window.offset + window.limit)}) FROM gate)`;
  const tierUsed = `((SELECT narrow FROM gate) AND ${tierSize} >= ${params.add(input.pageLimit ?? windowOf(input.request).limit)})`;
  const when = (condition: string, value: string) => `(CASE WHEN ${condition} THEN ${params.add(value)} ELSE ${MATCH_NOTHING} END)`;
  // The best PREFERRED_CANDIDATES by bm25 are ranked: the facts of 15,000 preferred matches of "data", looked
  // up one by one in a million rows, cost more than their bm25 (the quality prior of preferred agents varies by
  // less than a fifth, so the page's agents are among them).
  const best = `SELECT * FROM (${scoredFts(PREFERRED_FTS, when(tierWanted, agentTextExpression(plan.match)))}
      ORDER BY text_score DESC, rid LIMIT ${params.add(PREFERRED_CANDIDATES)})`;
  return `gate AS MATERIALIZED (${row}), ${shared},
    ${rank(best, { prefix: 't_', semWhen: tierWanted })}, tier_rows AS MATERIALIZED (SELECT * FROM t_kept),
    ${rank(scoredFts(FTS, when(restWanted, expression)), { prefix: '', semWhen: restWanted })},
    seq AS (SELECT *, 1 AS tier FROM tier_rows WHERE ${tierUsed}
      UNION ALL SELECT *, 0 AS tier FROM kept WHERE NOT ${tierUsed} OR rid NOT IN (SELECT rid FROM tier_rows))`;
}

/** A count of `matches` (a SELECT) that reads at most `bound` + 1 of them: `total` (at most `bound`) and `over`. */
export function boundedCountSql(matches: string, bound: number, params: SqlParams): string {
  const limit = params.add(bound + 1);
  const max = params.add(bound);
  return `SELECT min(n, ${max}) AS total, n > ${max} AS over FROM (SELECT count(*) AS n FROM (${matches} LIMIT ${limit}))`;
}
