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
 */
const FUNCTION_WEIGHTS = 'bm25(search_functions_fts, 8.0, 4.0, 2.0, 2.0)';

/** Sort keys, as columns of the `kept` rows. */
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
  total: number;
}

interface FunctionSearchResult {
  functions: FunctionRecord[];
  total: number;
}

export async function searchFunctions(runner: SqlRunner, request: FunctionSearchRequest): Promise<FunctionSearchResult> {
  const query = request.search_text
    ? await expandQuery(runner, request.search_text, { exact: request.exact_match ?? false, synonyms: !(request.exact_match ?? false) })
    : null;
  return run(runner, request, query ? query.match : null);
}

async function run(runner: SqlRunner, request: FunctionSearchRequest, match: string | null): Promise<FunctionSearchResult> {
  const params = new SqlParams();
  // Unlisted agents (public: false) are reachable by address, never listed: not here either.
  const conditions = ['a.is_active = 1', 'a.is_public = 1'];
  const types = [...(request.filters?.function_type ?? []), ...(request.function_type ? [request.function_type] : [])];
  if (types.length) conditions.push(`f.function_type IN ${params.list(types)}`);
  if (request.filters?.agent_address?.length) conditions.push(`a.address IN ${params.list(request.filters.agent_address)}`);
  const descending = (request.direction ?? 'desc') === 'desc';
  const dir = descending ? 'DESC' : 'ASC';
  const sort = request.sort ?? 'relevancy';
  let from = 'FROM search_functions f JOIN agents a ON a.rowid = f.agent_rowid';
  let score = '0';
  if (match) {
    from = `FROM search_functions_fts CROSS JOIN search_functions f ON f.id = search_functions_fts.rowid CROSS JOIN agents a ON a.rowid = f.agent_rowid`;
    conditions.push(`search_functions_fts MATCH ${params.add(match)}`);
    score = `-${FUNCTION_WEIGHTS}`;
  }
  const order =
    sort === 'relevancy'
      ? match
        ? `score ${dir}, id ${descending ? 'ASC' : 'DESC'}`
        : `total_interactions ${dir}, id ${dir}`
      : `${SORT_COLUMNS[sort]} ${dir}, id ${dir}`;
  const cutoff = request.cutoff ?? 0;
  const sql = `WITH scored AS (
      SELECT f.id, f.ordinal, f.function_type, f.name, f.description, f.parameters, f.protocol_digest,
        a.address AS agent_address, a.name AS agent_name, a.last_updated, a.created_at, a.total_interactions, ${score} AS score
      ${from} WHERE ${conditions.join(' AND ')}),
    kept AS (SELECT * FROM (SELECT *, max(score) OVER () AS best FROM scored) ${cutoff > 0 ? `WHERE score >= ${params.add(cutoff)} * best` : ''})
    SELECT *, COUNT(*) OVER () AS total FROM kept
    ORDER BY ${order} LIMIT ${params.add(request.limit ?? SEARCH_LIMIT_DEFAULT)} OFFSET ${params.add(request.offset ?? 0)}`;
  let rows: FunctionRow[];
  try {
    rows = await runner.all<FunctionRow>({ sql, params: params.values });
  } catch (error) {
    if (/fts5: syntax error|unterminated string/i.test(String(error))) return { functions: [], total: 0 };
    throw error;
  }
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && (request.offset ?? 0) > 0) total = (await run(runner, { ...request, offset: 0, limit: 1 }, match)).total;
  return { functions: rows.map(toFunctionRecord), total };
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
