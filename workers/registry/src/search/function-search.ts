import { parseJson } from '../agents/columns.ts';
import {
  SEARCH_LIMIT_DEFAULT,
  type FunctionParameter,
  type FunctionRecord,
  type FunctionSearchRequest,
} from '../../../../schemas/search.ts';
import type { SqlRunner } from './sql-runner.ts';
import { SqlParams } from './sql-params.ts';
import { expandQuery } from './text/expand.ts';

/**
 * Function search over search_functions (fed by triggers from agents.functions and agents.protocols):
 * the same text handling as agent search (prefixes, typos, synonyms, any word), bm25 over
 * name 8, description 4, parameters 2, agent name 2. Only functions of active, public agents are listed.
 * A text search ranks at most `candidates` matches, the most recently written ones (the full-text index's own
 * order, so it reads that many and no more): at a million agents a word such as "city" is in tens of thousands
 * of functions, and ranking all of them joined to their agents took 681 ms (docs/scale.md). A listing without
 * text reads at most `candidates` functions too, the first in its sort's order, through the listed agents'
 * index of that sort (docs/decisions/0208). Past the bound the total counts the listed candidates and is
 * flagged an estimate.
 */
const FUNCTION_WEIGHTS = 'bm25(search_functions_fts, 8.0, 4.0, 2.0, 2.0)';

/** Sort keys, as columns of the `kept` rows and of search_agent_facts (whose indexes hold each after is_active, is_public). */
const SORT_COLUMNS = {
  'created-at': 'created_at',
  'last-modified': 'last_updated',
  interactions: 'total_interactions',
} as const;

interface FunctionRow {
  id: number;
  ordinal: number;
  function_type: 'payload' | 'protocol';
  name: string;
  description: string;
  parameters: string;
  protocol_digest: string | null;
  agent_address: string;
  agent_name: string;
  last_updated: string;
  sort_key: number | string;
  score: number;
  best: number;
  total: number;
  /** Candidates read before ranking: text matches, or the listing's first functions (the bound when there are more). */
  candidates: number;
}

/** What a search over several databases (shards/fan-out-functions.ts) passes each of them. */
export interface FunctionSearchShard {
  /** Where query expansion reads the vocabulary: the registry's, over shards. */
  vocabulary?: SqlRunner;
  /** The cutoff as a score (`cutoff` × the best score of every shard) instead of relative to this database's best. */
  floor?: number;
}

interface FunctionSearchResult {
  functions: FunctionRecord[];
  total: number;
  totalIsEstimate: boolean;
  /** Each function's sort key and score, in the page's order: what pages of several databases merge by. */
  keys: { sort: number | string; score: number }[];
  /** The best match's score (0 without text): the cutoff's reference. */
  best: number;
}

export async function searchFunctions(
  runner: SqlRunner,
  request: FunctionSearchRequest,
  candidates: number,
  shard: FunctionSearchShard = {},
): Promise<FunctionSearchResult> {
  const query = request.search_text
    ? await expandQuery(shard.vocabulary ?? runner, request.search_text, {
        exact: request.exact_match ?? false,
        synonyms: !(request.exact_match ?? false),
      })
    : null;
  return run(runner, request, query ? { match: query.match } : null, candidates, shard.floor);
}

async function run(
  runner: SqlRunner,
  request: FunctionSearchRequest,
  text: { match: string } | null,
  bound: number,
  floor: number | undefined,
): Promise<FunctionSearchResult> {
  const params = new SqlParams();
  // Unlisted agents (public: false) are reachable by address, never listed: not here either.
  const conditions = ['a.is_active = 1', 'a.is_public = 1'];
  const types = [...(request.filters?.function_type ?? []), ...(request.function_type ? [request.function_type] : [])];
  const typeCondition = types.length ? `f.function_type IN ${params.list(types)}` : null;
  const addresses = request.filters?.agent_address ?? [];
  const listing = !text && !addresses.length;
  // The listing filters by type as it reads its bounded prefix (below); everything else after reading.
  if (typeCondition && !listing) conditions.push(typeCondition);
  if (addresses.length) conditions.push(`a.address IN ${params.list(addresses)}`);
  const descending = (request.direction ?? 'desc') === 'desc';
  const dir = descending ? 'DESC' : 'ASC';
  const sort = request.sort ?? 'relevancy';
  const sortKey = sort === 'relevancy' ? (text ? 'score' : 'total_interactions') : SORT_COLUMNS[sort];
  // Without text, functions of the same sort key follow their agent's address, as the listing index holds them.
  const order = text
    ? `${sortKey} ${dir}, id ${sort === 'relevancy' && descending ? 'ASC' : dir}`
    : `${sortKey} ${dir}, agent_address ${dir}, id ${dir}`;
  let candidates = '';
  let from = 'FROM search_functions f JOIN agents a ON a.rowid = f.agent_rowid';
  let score = '0';
  let candidateCount = '0';
  if (text) {
    // bm25 is computed for the rows read, and rowid order is the doclist's: the newest `bound` matches only.
    candidates = `candidates AS MATERIALIZED (
      SELECT rowid AS id, -${FUNCTION_WEIGHTS} AS score FROM search_functions_fts
      WHERE search_functions_fts MATCH ${params.add(text.match)} ORDER BY rowid DESC LIMIT ${params.add(bound)}),`;
    score = 'c.score';
  } else if (listing) {
    // The listing's first `bound` functions of the asked types, read in order from the listed agents' index of the
    // sort (agent_rowid last makes each index entry distinct, so no sort is needed) and each agent's functions in id
    // order. The type is checked as they are read, so a type rare in the sort's first functions still fills its
    // page (docs/decisions/0208, 2026-11-27 section).
    candidates = `candidates AS MATERIALIZED (
      SELECT f.id, 0 AS score FROM search_agent_facts s CROSS JOIN search_functions f ON f.agent_rowid = s.agent_rowid
      WHERE ${['s.is_active = 1', 's.is_public = 1', ...(typeCondition ? [typeCondition] : [])].join(' AND ')}
      ORDER BY s.${sortKey} ${dir}, s.address ${dir}, s.agent_rowid ${dir}, f.id ${dir} LIMIT ${params.add(bound)}),`;
  }
  if (candidates) {
    from = 'FROM candidates c CROSS JOIN search_functions f ON f.id = c.id CROSS JOIN agents a ON a.rowid = f.agent_rowid';
    candidateCount = '(SELECT count(*) FROM candidates)';
  }
  const cutoff = request.cutoff ?? 0;
  const kept =
    floor !== undefined ? `WHERE score >= ${params.add(floor)}` : cutoff > 0 ? `WHERE score >= ${params.add(cutoff)} * best` : '';
  const sql = `WITH ${candidates} scored AS (
      SELECT f.id, f.ordinal, f.function_type, f.name, f.description, f.parameters, f.protocol_digest,
        a.address AS agent_address, a.name AS agent_name, a.last_updated, a.created_at, a.total_interactions, ${score} AS score
      ${from} WHERE ${conditions.join(' AND ')}),
    kept AS (SELECT * FROM (SELECT *, max(score) OVER () AS best FROM scored) ${kept})
    SELECT *, ${sortKey} AS sort_key, COUNT(*) OVER () AS total, ${candidateCount} AS candidates FROM kept
    ORDER BY ${order} LIMIT ${params.add(request.limit ?? SEARCH_LIMIT_DEFAULT)} OFFSET ${params.add(request.offset ?? 0)}`;
  let rows: FunctionRow[];
  try {
    rows = await runner.all<FunctionRow>({ sql, params: params.values });
  } catch (error) {
    if (/fts5: syntax error|unterminated string/i.test(String(error)))
      return { functions: [], total: 0, totalIsEstimate: false, keys: [], best: 0 };
    throw error;
  }
  if (rows.length === 0 && (request.offset ?? 0) > 0) {
    const first = await run(runner, { ...request, offset: 0, limit: 1 }, text, bound, floor);
    return { functions: [], total: first.total, totalIsEstimate: first.totalIsEstimate, keys: [], best: first.best };
  }
  const totalIsEstimate = candidates !== '' && (rows[0]?.candidates ?? 0) >= bound;
  const keys = rows.map((row) => ({ sort: row.sort_key, score: row.score }));
  return { functions: rows.map(toFunctionRecord), total: rows[0]?.total ?? 0, totalIsEstimate, keys, best: rows[0]?.best ?? 0 };
}

function toFunctionRecord(row: FunctionRow): FunctionRecord {
  const stored = parseJson(row.parameters);
  const parameters = (Array.isArray(stored) ? stored : []).flatMap((item): FunctionParameter[] => {
    if (!item || typeof item !== 'object') return [];
    const { name, parameter, description, required } = item as Record<string, unknown>;
    const label = typeof name === 'string' ? name : typeof parameter === 'string' ? parameter : null;
    return label ? [{ name: label, description: typeof description === 'string' ? description : '', required: required !== false }] : [];
  });
  return {
    id: `${row.agent_address}:${row.function_type}:${row.ordinal}`,
    name: row.name,
    description: row.description,
    function_type: row.function_type,
    parameters,
    protocol_digest: row.protocol_digest,
    agent_address: row.agent_address,
    agent_name: row.agent_name,
    last_updated: row.last_updated,
  };
}
