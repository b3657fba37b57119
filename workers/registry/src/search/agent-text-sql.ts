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
   * SQL that, true, ranks the preferred agents first, read from their own index (bounded-candidates.ts), and every
   * other match after them only for a window they do not fill (`sequence`); the count still counts every
   * match, up to the exact-total bound. Only searches whose visibility lists just listed agents are narrowed.
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
  /**
   * For a search that may be narrowed to preferred agents, the window of its one sequence (docs/decisions/0220): the
   * tier — the best PREFERRED_CANDIDATES preferred matches by bm25, ranked (`tier` 1) — then every other match in
   * the full ranking's order (`tier` 0), so paging shows each match once. A tier that does not fill a page of the
   * client's size is not used: every match is ranked, on every page. `page` answers with the tier alone when the
   * search is narrowed (its rows say so in `narrowed`), or with every match when it is not; this runs after it only
   * when the tier did not fill the window, so the full ranking runs once per page and only past the tier.
   */
  sequence?: SqlStatement;
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

  const chainOf = (params: SqlParams, sequence: boolean) => {
    const shared = [clicksCte(input, params), ...(plan.semantic ? [semanticHitsCte(plan.semantic, params)] : [])].join(', ');
    const rank = (matches: string, names: ChainNames) => rankedChain(input, plan, sort, matches, params, ranked, names);
    if (!boundable) return `${shared}, ${rank(scoredFts(FTS, matchOf(params)), { prefix: '' })}, seq AS (SELECT *, 0 AS tier FROM kept)`;
    // The guard and the decision are read once, in `gate`: each vocabulary lookup of a word counts its doclist
    // (fts5vocab), 14 ms for "data" at a million agents, and each FTS query would evaluate them again.
    const row = plan.gateRow?.(params) ?? `SELECT ${guardOf(params, true) || '1'} AS pass, ${plan.bounded!(params)} AS narrow`;
    const when = (condition: string, value: string) => `(CASE WHEN ${condition} THEN ${params.add(value)} ELSE ${MATCH_NOTHING} END)`;
    const tierWanted = '(SELECT pass AND narrow FROM gate)';
    // The best PREFERRED_CANDIDATES by bm25 are ranked: the facts of 15,000 preferred matches of "data", looked
    // up one by one in a million rows, cost more than their bm25 (the quality prior of preferred agents varies by
    // less than a fifth, so the page's agents are among them).
    const tier = `SELECT * FROM (${scoredFts(PREFERRED_FTS, when(tierWanted, agentTextExpression(plan.match)))}
      ORDER BY text_score DESC, rid LIMIT ${params.add(PREFERRED_CANDIDATES)})`;
    const gate = `gate AS MATERIALIZED (${row}), ${shared}`;
    if (sequence) {
      const tierUsed = `((SELECT narrow FROM gate) AND (SELECT count(*) FROM tier_rows) >= ${params.add(input.pageLimit ?? windowOf(request).limit)})`;
      return `${gate}, ${rank(tier, { prefix: 't_', semWhen: tierWanted })}, tier_rows AS MATERIALIZED (SELECT * FROM t_kept),
        ${rank(scoredFts(FTS, when('(SELECT pass FROM gate)', expression)), { prefix: '' })},
        seq AS (SELECT *, 1 AS tier FROM tier_rows WHERE ${tierUsed}
          UNION ALL SELECT *, 0 AS tier FROM kept WHERE NOT ${tierUsed} OR rid NOT IN (SELECT rid FROM tier_rows))`;
    }
    // Narrowed, the tier's rows; otherwise every match's: each index is asked for the expression or for nothing.
    const every = scoredFts(FTS, when('(SELECT pass AND NOT narrow FROM gate)', expression));
    return `${gate}, ${rank(`${tier} UNION ALL ${every}`, { prefix: '' })}, seq AS (SELECT *, (SELECT narrow FROM gate) AS tier FROM kept)`;
  };
  const cutoff = request.cutoff ?? 0;
  const countInPage = Boolean(plan.semantic) || cutoff > 0 || (!listed && !boundable);
  let count: SqlStatement;
  if (plan.semantic || cutoff > 0) {
    // Semantic candidates and the cutoff (relative to the best score) need the ranking to be counted.
    const countParams = new SqlParams();
    count = { sql: `WITH ${chainOf(countParams, true)} SELECT count(*) AS total, 0 AS over FROM seq`, params: countParams.values };
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
  const statementOf = (sequence: boolean): SqlStatement => {
    const params = new SqlParams();
    const chain = chainOf(params, sequence);
    const columns = `${AGENT_RECORD_SELECTION}, p.rid AS rid, p.score AS score, p.clicks AS clicks, p.tier AS tier${countInPage ? ', p.total AS total' : ''}`;
    // The first statement of a search that may be narrowed says whether it was, on an empty page too: a row of
    // NULLs then (agent-search.ts drops it), so a page past the end never runs the sequence for nothing.
    const from =
      boundable && !sequence
        ? `SELECT ${columns}, g.narrow AS narrowed FROM gate g LEFT JOIN page p ON 1 LEFT JOIN agents a ON a.rowid = p.rid`
        : `SELECT ${columns} FROM page p CROSS JOIN agents a ON a.rowid = p.rid`;
    const sql = `WITH ${chain},
    page AS (SELECT rid, score, clicks, sort_key, address, tier${total} FROM ${rows} ORDER BY ${orderOf('')} LIMIT ${params.add(window.limit)} OFFSET ${params.add(window.offset)})
    ${from} ORDER BY ${orderOf('p.')}`;
    return { sql, params: params.values };
  };
  return { page: statementOf(false), ...(boundable ? { sequence: statementOf(true) } : {}), count, countInPage };
}

/** A count of `matches` (a SELECT) that reads at most `bound` + 1 of them: `total` (at most `bound`) and `over`. */
export function boundedCountSql(matches: string, bound: number, params: SqlParams): string {
  const limit = params.add(bound + 1);
  const max = params.add(bound);
  return `SELECT min(n, ${max}) AS total, n > ${max} AS over FROM (SELECT count(*) AS n FROM (${matches} LIMIT ${limit}))`;
}
