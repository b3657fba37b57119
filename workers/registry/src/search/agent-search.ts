import { AGENT_RECORD_SELECTION } from '../agents/row.ts';
import type { AgentHit, AgentSearchInput, AgentSearchResult, SearchMode } from './agent-search-types.ts';
import { filterConditions, listsOnlyListed } from './agent-filters.ts';
import { SORT_COLUMNS, whereClause, windowOf, type Window } from './agent-order.ts';
import { boundedCountSql, textStatements, type TextPlan, type TextStatements } from './agent-text-sql.ts';
import { narrowedSql, typedWordsNarrowed, typedWordsNarrowedCondition } from './bounded-candidates.ts';
import { RERANK_WINDOW } from './ranking.ts';
import { rerank } from './rerank.ts';
import type { SemanticHit } from './semantic.ts';
import { semanticRequested } from './semantic-default.ts';
import type { SemanticSource } from './semantic-source-types.ts';
import { DEFAULT_SEARCH_BOUNDS, type SearchBounds } from './search-bounds.ts';
import type { SqlRunner, SqlStatement } from './sql-runner.ts';
import { SqlParams } from './sql-params.ts';
import {
  expandPlanned,
  plainQueryApplies,
  plainQueryCondition,
  plainQueryGuard,
  planQuery,
  typedWordRows,
  type ExpandedQuery,
  type ExpandOptions,
  type QueryPlan,
} from './text/expand.ts';
import { taskText } from './text/filler.ts';
import { groupExpressions } from './text/fts-query.ts';
import { splitIdentifiers } from './text/identifiers.ts';
import { synonymsOf } from './text/synonyms.ts';
import { tokenize } from './text/tokenize.ts';

/**
 * Agent search: text → FTS5 match (any of the words; bm25 ranks agents matching more of them, in weightier
 * fields, first), filters, ranking, window. Over unchanged data the order is total and fixed (ties broken by address, click feedback frozen
 * at the session's start), so paging with one search_id never repeats or skips an agent.
 */

export async function searchAgents(
  runner: SqlRunner,
  semantic: SemanticSource | null,
  input: AgentSearchInput,
): Promise<AgentSearchResult> {
  const { request } = input;
  const options = { exact: request.exact_match ?? false, synonyms: !(request.exact_match ?? false) };
  const plan = request.search_text ? planQuery(request.search_text, options) : null;
  if (!plan) return browse(runner, input);
  if (plan.exact) return textSearch(runner, input, plan.exact, { mode: 'phrase', match: plan.exact.match, guard: input.gate });
  const lexicalMode = semanticRequested(request) ? 'lexical-fallback' : 'lexical';
  if ((!semanticRequested(request) || !semantic) && !input.vocabulary) return lexicalSearch(runner, input, plan, options, lexicalMode);

  // A source that only reads SQL reads the text as typed in the lookups' batch, gated as the batch's searches
  // are; kept when expansion adds no word to it (the usual query), read again with the words added otherwise.
  // Sharded, the lookups read the whole registry's vocabulary and the semantic side this shard: no shared batch.
  const vocabulary = input.vocabulary ?? runner;
  const speculative = input.vocabulary ? undefined : semantic?.plan?.(taskText(request.search_text!), input.gate);
  const firstRows = await vocabulary.batch([...plan.lookups, ...(speculative?.statements ?? [])]);
  const lookupRows = firstRows.slice(0, plan.lookups.length);
  const query = await expandPlanned(vocabulary, plan, lookupRows, options);
  if (!semanticRequested(request) || !semantic) {
    // lexicalSearch's answer without its speculative batch.
    return textSearch(runner, input, query, {
      mode: lexicalMode,
      match: query.match,
      bounded: await narrowing(input, plan, lookupRows, query),
    });
  }
  const bounded = await narrowing(input, plan, lookupRows, query);
  let hits: SemanticHit[];
  try {
    // The task without its filler phrases (filler.ts), and the words as expansion understood them (typos corrected,
    // the typed prefix completed when it is the only word), so the semantic source reads "parcle traking" as parcel
    // tracking, as the lexical ranking does; not for the parts of payload field names ("target_temp" → temperature),
    // which the semantic sources leave to the lexical ranking, nor synonyms: they add no meaning, only repeat one
    // word's ("recipe" read five times made a handwritten recipe card a cooking request). The alternatives follow as a
    // sentence of their own, so none is read as part of a context phrase that ends the request (context.ts).
    const plainWords = new Set(tokenize(splitIdentifiers(request.search_text!).plain).words);
    const whole = query.groups.some((group) => !group.prefix && plainWords.has(group.word));
    const alternatives = query.groups
      .filter((group) => plainWords.has(group.word) && !(group.prefix && whole))
      .flatMap((group) => group.alternatives.filter((alternative) => !synonymsOf(group.word).includes(alternative)));
    hits =
      speculative && alternatives.length === 0
        ? speculative.hits(firstRows.slice(plan.lookups.length))
        : await semantic.hits(runner, `${taskText(request.search_text!)}. ${alternatives.join(' ')}`);
  } catch (error) {
    // No semantic source answered (a Workers AI outage alone leaves the offline one: semantic-source.ts): answer
    // lexically rather than fail the search.
    console.error('semantic search failed, answering lexically', error);
    return textSearch(runner, input, query, { mode: 'lexical-fallback', match: query.match, bounded });
  }
  return textSearch(runner, input, query, {
    mode: 'hybrid',
    match: query.match,
    semantic: hits,
    bounded,
    groups: groupExpressions(query.groups),
  });
}

const boundsOf = (input: AgentSearchInput): SearchBounds => input.bounds ?? DEFAULT_SEARCH_BOUNDS;

/**
 * Whether the search ranks only preferred agents (bounded-candidates.ts): known here for the words as typed,
 * whose postings the lookups read; for an expanded query, decided in SQL beside the search, or, sharded (the
 * vocabulary is the whole registry's, each shard's is its own), read from the vocabulary first.
 */
async function narrowing(
  input: AgentSearchInput,
  plan: QueryPlan,
  lookupRows: unknown[][],
  query: ExpandedQuery,
): Promise<TextPlan['bounded']> {
  const { commonWordDocs } = boundsOf(input);
  if (query.match === plan.plain.match)
    return typedWordsNarrowed(plan.words, typedWordRows(plan, lookupRows), commonWordDocs) ? () => '1' : undefined;
  if (!input.vocabulary) return (params) => narrowedSql(query.groups, commonWordDocs, params);
  const params = new SqlParams();
  const sql = `SELECT ${narrowedSql(query.groups, commonWordDocs, params)} AS narrowed`;
  const [row] = await input.vocabulary.all<{ narrowed: number }>({ sql, params: params.values });
  return row?.narrowed ? () => '1' : undefined;
}

/** No searchable text: the filtered agents in the chosen order; relevancy = featured, then recent interactions. */
async function browse(runner: SqlRunner, input: AgentSearchInput): Promise<AgentSearchResult> {
  const { request, gate } = input;
  const { limit, offset, descending } = windowOf(request);
  const visibility = { filters: request.filters, excludeGeoAgents: request.exclude_geo_agents ?? false };
  const params = new SqlParams();
  const conditions = filterConditions(visibility, params);
  const where = whereClause(gate ? [...conditions, gate(params)] : conditions);
  const dir = descending ? 'DESC' : 'ASC';
  const sort = request.sort ?? 'relevancy';
  const keys = sort === 'relevancy' ? ['f.featured', 'f.recent_interactions', 'f.address'] : [SORT_COLUMNS[sort], 'f.address'];
  const order = keys.map((key) => `${key} ${dir}`).join(', ');
  const outerOrder = keys.map((_, i) => `p.k${i} ${dir}`).join(', ');
  // The unfiltered listing's total is the listed agents' counter (0013_search_bounded.sql); a filtered one stops at the bound.
  const countParams = new SqlParams();
  const countConditions = filterConditions(visibility, countParams);
  const countSql = listsOnlyListed(visibility)
    ? `SELECT listed AS total, 0 AS over FROM search_listed_total ${whereClause(['id = 0', ...(gate ? [gate(countParams)] : [])])}`
    : boundedCountSql(
        `SELECT 1 FROM search_agent_facts f ${whereClause(gate ? [...countConditions, gate(countParams)] : countConditions)}`,
        boundsOf(input).exactTotalMax,
        countParams,
      );
  // The page is re-sorted by its carried keys after the join (30 rows); a window numbering would sort every agent.
  const pageSql = `WITH page AS (
      SELECT f.agent_rowid, ${keys.map((key, i) => `${key} AS k${i}`).join(', ')} FROM search_agent_facts f ${where}
      ORDER BY ${order} LIMIT ${params.add(limit)} OFFSET ${params.add(offset)})
    SELECT ${AGENT_RECORD_SELECTION}, p.agent_rowid AS rid, 0 AS score, 0 AS clicks FROM page p CROSS JOIN agents a ON a.rowid = p.agent_rowid ORDER BY ${outerOrder}`;
  const [countRows, rows] = (await runner.batch([
    { sql: countSql, params: countParams.values },
    { sql: pageSql, params: params.values },
  ])) as [CountRow[], AgentHit[]];
  return { rows, ...totalOf(countRows), mode: 'browse' };
}

/**
 * The lexical path in one round trip when every word is common (the usual query): the search for the
 * words as typed runs in the vocabulary lookups' batch, guarded to match nothing unless expansion will
 * leave the words as typed (plainQueryGuard), and is kept when it did. Otherwise the expanded query runs next.
 */
async function lexicalSearch(
  runner: SqlRunner,
  input: AgentSearchInput,
  plan: QueryPlan,
  options: ExpandOptions,
  mode: 'lexical' | 'lexical-fallback',
): Promise<AgentSearchResult> {
  // The guard and the narrowing read the same words: one read of the vocabulary for both.
  const gateRow = (params: SqlParams) => {
    const pass = [plainQueryCondition(plan), ...(input.gate ? [input.gate(params)] : [])].join(' AND ');
    const narrow = typedWordsNarrowedCondition(plan.words, boundsOf(input).commonWordDocs, params);
    return `SELECT ${pass} AS pass, ${narrow} AS narrow FROM search_words_vocab WHERE term IN ${params.list(plan.words)}`;
  };
  const speculative = searchStatements(input, {
    mode,
    match: plan.plain.match,
    guard: input.gate,
    speculation: (params) => plainQueryGuard(plan, params),
    gateRow,
  });
  let results: unknown[][];
  try {
    results = await runner.batch([...plan.lookups, ...searchBatch(speculative)]);
  } catch (error) {
    if (isFtsSyntaxError(error)) return { rows: [], total: 0, totalIsEstimate: false, mode };
    throw error;
  }
  const lookupRows = results.slice(0, plan.lookups.length);
  const query = await expandPlanned(runner, plan, lookupRows, options);
  if (plainQueryApplies(plan, lookupRows) && query.match === plan.plain.match)
    return finish(runner, query, speculative, results.slice(plan.lookups.length), mode);
  return textSearch(runner, input, query, { mode, match: query.match, bounded: await narrowing(input, plan, lookupRows, query) });
}

interface PreparedSearch extends TextStatements {
  window: Window;
  reranking: boolean;
  /** The rows the page statement asks for (more than the window when reranking). */
  fetched: number;
}

function searchStatements(input: AgentSearchInput, plan: TextPlan): PreparedSearch {
  const { request } = input;
  const window = windowOf(request);
  const sort = request.sort ?? 'relevancy';
  const reranking = (request.rerank ?? false) && sort === 'relevancy' && window.descending && window.offset < RERANK_WINDOW;
  // Reranking reorders the best RERANK_WINDOW hits, so those are read whatever the window.
  const fetch = reranking ? { limit: Math.max(RERANK_WINDOW, window.offset + window.limit), offset: 0 } : window;
  return { ...textStatements(input, plan, sort, { ...window, ...fetch }), window, reranking, fetched: fetch.limit };
}

async function textSearch(runner: SqlRunner, input: AgentSearchInput, query: ExpandedQuery, plan: TextPlan): Promise<AgentSearchResult> {
  const prepared = searchStatements(input, plan);
  let results: unknown[][];
  try {
    results = await runner.batch(searchBatch(prepared));
  } catch (error) {
    if (isFtsSyntaxError(error)) return { rows: [], total: 0, totalIsEstimate: false, mode: plan.mode };
    throw error;
  }
  return finish(runner, query, prepared, results, plan.mode);
}

/** The statements a search runs in its batch: the page, and the count unless the page's rows carry it. */
function searchBatch(prepared: PreparedSearch): SqlStatement[] {
  return prepared.countInPage ? [prepared.page] : [prepared.count, prepared.page];
}

/** The query text is quoted word by word, so FTS5 syntax errors cannot come from users; anything else is ours. */
function isFtsSyntaxError(error: unknown): boolean {
  return /fts5: syntax error|unterminated string/i.test(String(error));
}

/** The result from the batch's rows (searchBatch's statements, in order). */
async function finish(
  runner: SqlRunner,
  query: ExpandedQuery,
  prepared: PreparedSearch,
  results: unknown[][],
  mode: SearchMode,
): Promise<AgentSearchResult> {
  const { window, reranking } = prepared;
  let pageRows = results[results.length - 1] as AgentHit[];
  if (prepared.sequence) {
    const narrowed = Boolean(pageRows[0]?.narrowed);
    pageRows = pageRows.filter((row) => row.rid !== null);
    // The preferred tier did not fill the window: the sequence goes on with every other match (agent-text-sql.ts).
    if (narrowed && pageRows.length < prepared.fetched) pageRows = await runner.all<AgentHit>(prepared.sequence);
  }
  const counted = prepared.countInPage
    ? { total: await totalFromPage(runner, prepared, pageRows), totalIsEstimate: false }
    : totalOf(results[0] as CountRow[]);
  let rows = pageRows;
  if (reranking) {
    const head = rerank(rows.slice(0, RERANK_WINDOW), query);
    rows = [...head, ...rows.slice(RERANK_WINDOW)].slice(window.offset, window.offset + window.limit);
  }
  return { rows, ...counted, mode };
}

/** A count statement's row (agent-text-sql.ts, boundedCountSql). */
interface CountRow {
  total: number;
  over: number;
}

const totalOf = (rows: CountRow[]) => ({ total: rows[0]?.total ?? 0, totalIsEstimate: Boolean(rows[0]?.over) });

/** The window count the page's rows carry; a page past the last match has no row to carry it, so it is counted alone. */
async function totalFromPage(runner: SqlRunner, prepared: PreparedSearch, pageRows: AgentHit[]): Promise<number> {
  if (pageRows.length > 0) return Number(pageRows[0]!.total);
  if (prepared.window.offset === 0 || prepared.reranking) return 0;
  const [counted] = await runner.all<{ total: number }>(prepared.count);
  return counted?.total ?? 0;
}
