import type { SemanticHit } from '../semantic.ts';
import type { SqlRunner } from '../sql-runner.ts';
import { splitIdentifiers } from '../text/identifiers.ts';
import { nearestBuckets, storedCosine } from './vector-index.ts';
import { addText, emptyVector, knownWords, normalize } from './word-vectors.ts';

/**
 * The offline semantic source's word-vector half: the query's vector against the agents' vectors stored at
 * write time (vector-index.ts), read from the buckets nearest the query until ROWS_WANTED rows are in hand.
 * The work is bounded by the rows read, whatever the registry's size or the request's words: a small registry
 * is read whole (exact), a large one in its nearest buckets, each most central first.
 */

/** Rows a search wants to score: every agent of a registry this size, a few buckets of a large one. */
const ROWS_WANTED = 400;
/** A bucket holding more agents is read most central first, this many, if it is among the BUCKETS_READ nearest. */
const ROWS_PER_BUCKET = 200;
const BUCKETS_READ = 24;
/** Hits handed on, as many as Vectorize is asked for. */
const VECTOR_TOP_K = 50;
/** Cosine at which a hit starts to count: the sums of word vectors of unrelated texts sit around 0.1–0.3. */
const VECTOR_FLOOR = 0.3;
/**
 * Words a request needs (stopwords included) before word vectors read it: an average of word vectors says what
 * a sentence is about, while in a request of two or three words ("species symptoms", "diff language") each exact
 * word matters more than their blend, and the lexical ranking reads those better (payload queries lost 0.05 MRR).
 */
const MIN_WORDS = 4;

interface VectorCandidate {
  address: string;
  scale: number;
  code: string;
}

/**
 * One statement: every bucket in order of closeness, with the agents the closer ones hold (`before`). Buckets
 * are read while fewer than ROWS_WANTED agents come before them: a small bucket whole, a large one (only
 * among the nearest) up to ROWS_PER_BUCKET, most central first. So at most ROWS_WANTED + ROWS_PER_BUCKET rows.
 */
function candidatesStatement(buckets: number[]) {
  const large = buckets.slice(0, BUCKETS_READ).map(
    (bucket, ord) => `SELECT * FROM (SELECT agent_rowid, scale, code FROM search_agent_vectors
        WHERE bucket = ${bucket} AND (SELECT before < ${ROWS_WANTED} AND agents > ${ROWS_PER_BUCKET} FROM probe WHERE ord = ${ord})
        ORDER BY centrality DESC LIMIT ${ROWS_PER_BUCKET})`,
  );
  const small = `SELECT v.agent_rowid, v.scale, v.code FROM probe p CROSS JOIN search_agent_vectors v ON v.bucket = p.bucket
        WHERE p.before < ${ROWS_WANTED} AND p.agents <= ${ROWS_PER_BUCKET}`;
  return {
    sql: `WITH probe AS MATERIALIZED (SELECT j.key AS ord, b.bucket, b.agents,
            coalesce(sum(b.agents) OVER (ORDER BY j.key ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS before
          FROM json_each(?1) j CROSS JOIN search_vector_buckets b ON b.bucket = j.value),
        read AS (${[small, ...large].join(' UNION ALL ')})
      SELECT f.address, r.scale, r.code FROM read r CROSS JOIN search_agent_facts f ON f.agent_rowid = r.agent_rowid`,
    params: [JSON.stringify(buckets)],
  };
}

export async function vectorHits(runner: SqlRunner, text: string): Promise<SemanticHit[]> {
  const { plain, wordShare } = splitIdentifiers(text);
  if (knownWords(plain) < MIN_WORDS) return [];
  const query = normalize(addText(emptyVector(), plain));
  if (!query.some((x) => x !== 0)) return [];
  const rows = await runner.all<VectorCandidate>(candidatesStatement(nearestBuckets(query)));
  return rows
    .map((row) => {
      const similarity = storedCosine(row, query);
      return { address: row.address, similarity, strength: (wordShare * Math.max(0, similarity - VECTOR_FLOOR)) / (1 - VECTOR_FLOOR) };
    })
    .filter((hit) => hit.strength > 0)
    .sort((a, b) => b.similarity - a.similarity || (a.address < b.address ? -1 : 1))
    .slice(0, VECTOR_TOP_K);
}
