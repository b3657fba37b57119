import { SEARCH_LIMIT_DEFAULT, type AgentSearchRequest, type AgentSort } from '../../../../schemas/search.ts';
import { filterConditions } from './agent-filters.ts';
import { bm25Expression, feedbackFactor, RERANK_WINDOW, RRF_K } from './ranking.ts';
import { rerank } from './rerank.ts';
import { semanticHits, type SemanticBackend, type SemanticHit } from './semantic.ts';
import type { SqlRunner } from './sql-runner.ts';
import { SqlParams } from './sql-params.ts';
import { expandQuery, type ExpandedQuery } from './text/expand.ts';

/**
 * Agent search: text → FTS5 match (any of the words; bm25 ranks agents matching more of them, in weightier
 * fields, first), filters, ranking, window. Over unchanged data the order is total and fixed (ties broken by address, click feedback frozen
 * at the session's start), so paging with one search_id never repeats or skips an agent.
 */

/** How a search was answered; also the `x-search-mode` response header. */
export type SearchMode = 'browse' | 'lexical' | 'phrase' | 'hybrid' | 'lexical-fallback';

export interface AgentRow {
  rid: number;
  address: string;
  name: string;
  tags: string;
  description: string;
  score: number;
  clicks: number;
  total: number;
  [column: string]: unknown;
}

export interface AgentSearchResult {
  rows: AgentRow[];
  total: number;
  mode: SearchMode;
}

export interface AgentSearchInput {
  request: AgentSearchRequest;
  searchId: string;
  queryKey: string;
  /** The request's start: the click cut-off of a session not stored yet. */
  startedAt: string;
}

/** Sort keys, as columns of search_agent_facts `f`. */
const SORT_COLUMNS: Record<Exclude<AgentSort, 'relevancy'>, string> = {
  'created-at': 'f.created_at',
  'last-modified': 'f.last_updated',
  interactions: 'f.total_interactions',
};

export async function searchAgents(runner: SqlRunner, semantic: SemanticBackend | null, input: AgentSearchInput): Promise<AgentSearchResult> {
  const { request } = input;
  const query = request.search_text
    ? await expandQuery(runner, request.search_text, { exact: request.exact_match ?? false, synonyms: !(request.exact_match ?? false) })
    : null;
  if (!query) return browse(runner, input);
  if (request.exact_match) return textSearch(runner, input, query, { mode: 'phrase', match: query.match });

  if (request.semantic_search) {
    if (!semantic) return textSearch(runner, input, query, { mode: 'lexical-fallback', match: query.match });
    let hits: SemanticHit[];
    try {
      hits = await semanticHits(semantic, runner, request.search_text!);
    } catch (error) {
      // Workers AI or Vectorize unavailable: answer lexically rather than fail the search.
      console.error('semantic search failed, answering lexically', error);
      return textSearch(runner, input, query, { mode: 'lexical-fallback', match: query.match });
    }
    return textSearch(runner, input, query, { mode: 'hybrid', match: query.match, semantic: hits });
  }

  return textSearch(runner, input, query, { mode: 'lexical', match: query.match });
}

interface Window {
  limit: number;
  offset: number;
  descending: boolean;
}

function windowOf(request: AgentSearchRequest): Window {
  return { limit: request.limit ?? SEARCH_LIMIT_DEFAULT, offset: request.offset ?? 0, descending: (request.direction ?? 'desc') === 'desc' };
}

function whereClause(conditions: string[]): string {
  return conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
}

/** No searchable text: the filtered agents in the chosen order; relevancy = featured, then recent interactions. */
async function browse(runner: SqlRunner, { request }: AgentSearchInput): Promise<AgentSearchResult> {
  const { limit, offset, descending } = windowOf(request);
  const params = new SqlParams();
  const where = whereClause(filterConditions({ filters: request.filters, excludeGeoAgents: request.exclude_geo_agents ?? false }, params));
  const dir = descending ? 'DESC' : 'ASC';
  const sort = request.sort ?? 'relevancy';
  const keys = sort === 'relevancy' ? ['f.featured', 'f.recent_interactions', 'f.address'] : [SORT_COLUMNS[sort], 'f.address'];
  const order = keys.map((key) => `${key} ${dir}`).join(', ');
  const outerOrder = keys.map((_, i) => `p.k${i} ${dir}`).join(', ');
  const countSql = `SELECT COUNT(*) AS total FROM search_agent_facts f ${where}`;
  // The page is re-sorted by its carried keys after the join (30 rows); a window numbering would sort every agent.
  const pageSql = `WITH page AS (
      SELECT f.agent_rowid, ${keys.map((key, i) => `${key} AS k${i}`).join(', ')} FROM search_agent_facts f ${where}
      ORDER BY ${order} LIMIT ${params.add(limit)} OFFSET ${params.add(offset)})
    SELECT a.*, p.agent_rowid AS rid, 0 AS score, 0 AS clicks FROM page p CROSS JOIN agents a ON a.rowid = p.agent_rowid ORDER BY ${outerOrder}`;
  const [countRows, rows] = (await runner.batch([
    { sql: countSql, params: params.values.slice(0, params.values.length - 2) },
    { sql: pageSql, params: params.values },
  ])) as [{ total: number }[], AgentRow[]];
  return { rows, total: countRows[0]?.total ?? 0, mode: 'browse' };
}

interface TextPlan {
  mode: SearchMode;
  match: string;
  semantic?: SemanticHit[];
}

async function textSearch(runner: SqlRunner, input: AgentSearchInput, query: ExpandedQuery, plan: TextPlan): Promise<AgentSearchResult> {
  const { request } = input;
  const window = windowOf(request);
  const sort = request.sort ?? 'relevancy';
  const reranking = (request.rerank ?? false) && sort === 'relevancy' && window.descending && window.offset < RERANK_WINDOW;
  const fetch = reranking ? { limit: Math.max(RERANK_WINDOW, window.offset + window.limit), offset: 0 } : window;

  const { sql, params } = textSql(input, plan, sort, { ...window, ...fetch });
  let rows: AgentRow[];
  try {
    rows = await runner.all<AgentRow>({ sql, params });
  } catch (error) {
    // The query text is quoted word by word, so FTS5 syntax errors cannot come from users; anything else is ours.
    if (/fts5: syntax error|unterminated string/i.test(String(error))) return { rows: [], total: 0, mode: plan.mode };
    throw error;
  }
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && fetch.offset > 0) total = await countOnly(runner, input, plan);
  if (reranking) {
    const head = rerank(rows.slice(0, RERANK_WINDOW), query);
    rows = [...head, ...rows.slice(RERANK_WINDOW)].slice(window.offset, window.offset + window.limit);
  }
  return { rows, total, mode: plan.mode };
}

function textSql(input: AgentSearchInput, plan: TextPlan, sort: AgentSort, window: Window) {
  const { request, searchId, queryKey, startedAt } = input;
  const params = new SqlParams();
  const match = params.add(plan.match);
  const conditions = filterConditions({ filters: request.filters, excludeGeoAgents: request.exclude_geo_agents ?? false }, params);
  const clicks = `clicks AS (
      SELECT address, COUNT(*) AS n FROM search_clicks
      WHERE query_key = ${params.add(queryKey)}
        AND clicked_at <= coalesce((SELECT started_at FROM search_sessions WHERE search_id = ${params.add(searchId)}), ${params.add(startedAt)})
      GROUP BY address)`;
  const hits = `hits AS (SELECT rowid AS rid, -${bm25Expression('search_agents_fts')} AS text_score FROM search_agents_fts WHERE search_agents_fts MATCH ${match})`;

  let candidates: string;
  let scoreExpression: string;
  let from: string;
  if (plan.semantic) {
    const semantic = params.add(JSON.stringify(plan.semantic.map((hit) => hit.address)));
    candidates = `${hits},
      lex AS (SELECT rid, ROW_NUMBER() OVER (ORDER BY text_score DESC, rid) AS lex_rank FROM hits),
      sem AS (SELECT value AS address, CAST(key AS INTEGER) + 1 AS sem_rank FROM json_each(${semantic})),
      cand AS (SELECT rid FROM lex UNION SELECT f.agent_rowid FROM sem JOIN search_agent_facts f ON f.address = sem.address)`;
    scoreExpression = `(coalesce(1.0 / (${RRF_K} + l.lex_rank), 0) + coalesce(1.0 / (${RRF_K} + s.sem_rank), 0))`;
    from = 'FROM cand CROSS JOIN search_agent_facts f ON f.agent_rowid = cand.rid LEFT JOIN lex l ON l.rid = f.agent_rowid LEFT JOIN sem s ON s.address = f.address';
  } else {
    candidates = hits;
    scoreExpression = 'h.text_score';
    // CROSS JOIN fixes the loop order: matches outside, facts looked up by rowid. Left to the planner, the
    // listed-agents index can win and run the FTS query once per listed agent.
    from = 'FROM hits h CROSS JOIN search_agent_facts f ON f.agent_rowid = h.rid';
  }
  const sortKey = sort === 'relevancy' ? 'score' : 'sort_key';
  const scored = `scored AS (
      SELECT f.agent_rowid AS rid, f.address AS address, coalesce(c.n, 0) AS clicks,
        ${scoreExpression} * ${feedbackFactor('coalesce(c.n, 0)')} AS score,
        ${sort === 'relevancy' ? 'NULL' : SORT_COLUMNS[sort]} AS sort_key
      ${from} LEFT JOIN clicks c ON c.address = f.address
      ${whereClause(conditions)})`;
  const cutoff = request.cutoff ?? 0;
  // The best score comes from a window, not a second read of `scored`: bm25() only runs inside its FTS query.
  const kept = cutoff > 0
    ? `kept AS (SELECT * FROM (SELECT *, max(score) OVER () AS best FROM scored) WHERE score >= ${params.add(cutoff)} * best)`
    : 'kept AS (SELECT * FROM scored)';
  const dir = window.descending ? 'DESC' : 'ASC';
  const tieDir = sort === 'relevancy' ? (window.descending ? 'ASC' : 'DESC') : dir;
  const orderOf = (table: string) => `${table}${sortKey} ${dir}, ${table}address ${tieDir}`;
  const order = orderOf('');
  const sql = `WITH ${candidates}, ${clicks}, ${scored}, ${kept},
    page AS (
      SELECT rid, score, clicks, sort_key, address, COUNT(*) OVER () AS total
      FROM kept ORDER BY ${order} LIMIT ${params.add(window.limit)} OFFSET ${params.add(window.offset)})
    SELECT a.*, p.rid AS rid, p.score AS score, p.clicks AS clicks, p.total AS total
    FROM page p CROSS JOIN agents a ON a.rowid = p.rid ORDER BY ${orderOf('p.')}`;
  return { sql, params: params.values };
}

/** Total of a text search whose window lies past its end (the page query then carries no total). */
async function countOnly(runner: SqlRunner, input: AgentSearchInput, plan: TextPlan): Promise<number> {
  const { sql, params } = textSql({ ...input, request: { ...input.request, rerank: false } }, plan, 'relevancy', { limit: 1, offset: 0, descending: true });
  const rows = await runner.all<AgentRow>({ sql, params });
  return rows[0]?.total ?? 0;
}
