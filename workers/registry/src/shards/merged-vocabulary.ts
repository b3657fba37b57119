import type { SqlRunner, SqlStatement } from '../search/sql-runner.ts';

/** The only statements query expansion runs (search/text/expand.ts): vocabulary reads, in term order, maybe cut. */
const VOCABULARY_READ = /^SELECT term, doc FROM search_words_vocab WHERE [^;]*?(?: LIMIT (\d+))?$/;

interface VocabRow {
  term: string;
  doc: number;
}

/**
 * The registry's vocabulary over sharded agents: each vocabulary read runs on every shard, and a term's
 * document count is the sum of the shards' (a document is on one shard only). Query expansion (typos,
 * prefixes, synonyms, common words) then decides as it would over one database, instead of each shard
 * deciding on its quarter of the counts. A read cut at LIMIT n keeps the first n terms of the union: each
 * of those is among the first n of every shard that has it.
 */
export function mergedVocabulary(shards: readonly SqlRunner[]): SqlRunner {
  // Every shard's search expands the same query: its reads are made once, not once per shard.
  const read = new Map<string, Promise<unknown[][]>>();
  async function merged(statements: readonly SqlStatement[]): Promise<unknown[][]> {
    const limits = statements.map(limitOf);
    const perShard = await Promise.all(shards.map((shard) => shard.batch(statements)));
    return statements.map((_, i) =>
      merge(
        perShard.map((results) => results[i] as VocabRow[]),
        limits[i],
      ),
    );
  }
  function batch(statements: readonly SqlStatement[]): Promise<unknown[][]> {
    const key = JSON.stringify(statements);
    if (!read.has(key)) read.set(key, merged(statements));
    return read.get(key)!;
  }
  return {
    async all<Row>(statement: SqlStatement) {
      return (await batch([statement]))[0] as Row[];
    },
    batch,
  };
}

function limitOf(statement: SqlStatement): number | undefined {
  const read = VOCABULARY_READ.exec(statement.sql.trim());
  if (!read) throw new Error(`not a vocabulary read: ${statement.sql}`);
  return read[1] === undefined ? undefined : Number(read[1]);
}

function merge(rows: VocabRow[][], limit: number | undefined): VocabRow[] {
  const docs = new Map<string, number>();
  for (const row of rows.flat()) docs.set(row.term, (docs.get(row.term) ?? 0) + row.doc);
  // fts5vocab lists terms in their bytes' order; for these terms (no surrogate pairs) code unit order is the same.
  const merged = [...docs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([term, doc]) => ({ term, doc }));
  return limit === undefined ? merged : merged.slice(0, limit);
}
