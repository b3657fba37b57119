import { type FunctionRecord, type FunctionSearchRequest, SEARCH_LIMIT_DEFAULT } from '../../../../schemas/search.ts';
import { searchFunctions } from '../search/function-search.ts';
import type { SqlRunner } from '../search/sql-runner.ts';
import { mergedVocabulary } from './merged-vocabulary.ts';

/**
 * Function search over agents sharded by address, as fanOutSearch does agent search: every shard answers for
 * its top offset + limit functions over the registry's vocabulary, the pages merge by their sort keys, the
 * window is cut from the merge and the totals add up. A cutoff is relative to the best match of the whole
 * registry: the shards' best scores are read first, and each shard keeps what scores at least cutoff × that.
 * Functions with equal sort keys follow their ids (`address:type:ordinal`) where one database follows the
 * order its rows were written in; scores are each shard's bm25 (docs/scale.md). Each shard ranks at most
 * `candidates` text matches, its newest, so the total is an estimate when any shard reached its bound.
 */
export async function fanOutFunctions(
  shards: readonly SqlRunner[],
  request: FunctionSearchRequest,
  candidates: number,
): Promise<{ functions: FunctionRecord[]; total: number; totalIsEstimate: boolean }> {
  const offset = request.offset ?? 0;
  const limit = request.limit ?? SEARCH_LIMIT_DEFAULT;
  const vocabulary = mergedVocabulary(shards);
  const cutoff = request.cutoff ?? 0;
  let floor: number | undefined;
  if (cutoff > 0 && request.search_text) {
    const tops = await Promise.all(
      shards.map((shard) => searchFunctions(shard, { ...request, cutoff: 0, offset: 0, limit: 1 }, candidates, { vocabulary })),
    );
    floor = cutoff * Math.max(0, ...tops.map((top) => top.best));
  }
  const pages = await Promise.all(
    shards.map((shard) => searchFunctions(shard, { ...request, offset: 0, limit: offset + limit }, candidates, { vocabulary, floor })),
  );
  const sign = (request.direction ?? 'desc') === 'desc' ? -1 : 1;
  // Relevancy by score breaks ties the other way round, as the SQL does (function-search.ts).
  const tieSign = (request.sort ?? 'relevancy') === 'relevancy' && request.search_text ? -sign : sign;
  const rows = pages.flatMap((page) => page.functions.map((record, i) => ({ record, key: page.keys[i]!.sort })));
  rows.sort((a, b) => sign * compare(a.key, b.key) || tieSign * compare(a.record.id, b.record.id));
  return {
    functions: rows.slice(offset, offset + limit).map((row) => row.record),
    total: pages.reduce((sum, page) => sum + page.total, 0),
    totalIsEstimate: pages.some((page) => page.totalIsEstimate),
  };
}

const compare = (a: number | string, b: number | string) => (a < b ? -1 : a > b ? 1 : 0);
