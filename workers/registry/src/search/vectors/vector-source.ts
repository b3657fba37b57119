import type { SemanticPlan } from '../semantic-source-types.ts';
import { SqlParams } from '../sql-params.ts';
import { CONTEXT_WEIGHT, splitContext } from '../text/context.ts';
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
/** Rows read from any one bucket, most central first. */
const ROWS_PER_BUCKET = 200;
/** Hits handed on, as many as Vectorize is asked for. */
const VECTOR_TOP_K = 50;
/**
 * Cosine at which a hit starts to count: the sums of word vectors of unrelated texts sit around 0.1–0.3. A hit's
 * strength is its cosine above the floor, not rescaled to 0–1: rescaled, a word-vector hit outweighed the concept
 * lexicon's and the lexical ranking's evidence on the development sets (docs/decisions/0216).
 */
const VECTOR_FLOOR = 0.25;
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
 * are read while fewer than ROWS_WANTED agents come before them, each down to its ROWS_PER_BUCKET-th most central
 * row (`floor`, then `floor_rid` among equal ones: agents with the same text tie; found by walking that many index
 * entries), so at most about ROWS_WANTED + ROWS_PER_BUCKET rows are
 * read. One range scan a bucket: D1 refuses a compound SELECT of a term per bucket.
 */
function candidatesStatement(buckets: number[], gate: ((params: SqlParams) => string) | undefined) {
  const params = new SqlParams();
  const json = params.add(JSON.stringify(buckets));
  const wanted = params.add(ROWS_WANTED);
  const perBucket = params.add(ROWS_PER_BUCKET);
  const gated = gate ? `WHERE ${gate(params)}` : '';
  return {
    sql: `WITH probe AS MATERIALIZED (SELECT b.bucket, b.agents,
            coalesce(sum(b.agents) OVER (ORDER BY j.key ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS before
          FROM json_each(${json}) j CROSS JOIN search_vector_buckets b ON b.bucket = j.value ${gated}),
        chosen AS MATERIALIZED (SELECT bucket,
            CASE WHEN agents > ${perBucket} THEN (SELECT centrality FROM search_agent_vectors WHERE bucket = p.bucket
              ORDER BY centrality DESC, agent_rowid DESC LIMIT 1 OFFSET ${perBucket} - 1) ELSE -2 END AS floor,
            CASE WHEN agents > ${perBucket} THEN (SELECT agent_rowid FROM search_agent_vectors WHERE bucket = p.bucket
              ORDER BY centrality DESC, agent_rowid DESC LIMIT 1 OFFSET ${perBucket} - 1) ELSE 0 END AS floor_rid
          FROM probe p WHERE before < ${wanted} AND agents > 0)
      SELECT f.address, v.scale, v.code FROM chosen c
        CROSS JOIN search_agent_vectors v ON v.bucket = c.bucket AND (v.centrality, v.agent_rowid) >= (c.floor, c.floor_rid)
        CROSS JOIN search_agent_facts f ON f.agent_rowid = v.agent_rowid`,
    params: params.values,
  };
}

export function vectorPlan(text: string, gate?: (params: SqlParams) => string): SemanticPlan {
  const { plain, wordShare } = splitIdentifiers(text);
  const none = { statements: [], hits: () => [] };
  if (knownWords(plain) < MIN_WORDS) return none;
  // The user's circumstances ("for my plant shop") count less than the task (context.ts).
  const { task, context } = splitContext(plain);
  const query = normalize(addText(addText(emptyVector(), task), context, CONTEXT_WEIGHT));
  if (!query.some((x) => x !== 0)) return none;
  return {
    statements: [candidatesStatement(nearestBuckets(query), gate)],
    hits: ([rows = []]) =>
      (rows as VectorCandidate[])
        .map((row) => {
          const similarity = storedCosine(row, query);
          return { address: row.address, similarity, strength: wordShare * Math.max(0, similarity - VECTOR_FLOOR) };
        })
        .filter((hit) => hit.strength > 0)
        .sort((a, b) => b.similarity - a.similarity || (a.address < b.address ? -1 : 1))
        .slice(0, VECTOR_TOP_K),
  };
}
