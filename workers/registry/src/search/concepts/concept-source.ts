import type { SemanticHit } from '../semantic.ts';
import { termsWithinBudget } from '../candidate-terms.ts';
import type { SqlRunner } from '../sql-runner.ts';
import { quoteFts } from '../text/fts-query.ts';
import { agentVector, conceptTerms, cosine, queryConcepts, type AgentText } from './concept-vectors.ts';

/**
 * The offline semantic source's concept half (offline-source.ts): the query's concept vector, candidates from
 * the full-text index (agents using any term of the query's concepts, best bm25 first), ranked by the cosine
 * of their concept vectors. Runs wherever D1 does (wrangler dev, tests): the model is the lexicon shipped in code.
 */

/** Candidates read per query: enough to hold every agent of a concept in a mid-sized registry. */
const CONCEPT_CANDIDATES = 200;
/** Hits handed to fusion, as many as Vectorize is asked for. */
const CONCEPT_TOP_K = 50;
/** Cosine under which an agent shares too little of the request's meaning to count. */
const CONCEPT_MIN_SIMILARITY = 0.2;

interface CandidateRow extends AgentText {
  address: string;
}

export async function conceptHits(runner: SqlRunner, text: string): Promise<SemanticHit[]> {
  const { vector: query, wordShare } = queryConcepts(text);
  const terms = await termsWithinBudget(runner, conceptTerms(query));
  if (terms.length === 0) return [];
  // The user's words are not in this expression, only lexicon terms, quoted: no FTS syntax can come from the request.
  const match = `- {listing} : (${terms.map(quoteFts).join(' OR ')})`;
  const rows = await runner.all<CandidateRow>({
    sql: `SELECT address, name, tags, description, use_cases, functions, readme FROM search_agents_fts
            WHERE search_agents_fts MATCH ?1 ORDER BY rank LIMIT ?2`,
    params: [match, CONCEPT_CANDIDATES],
  });
  return rows
    .map((row) => {
      const similarity = cosine(query, agentVector(row));
      return { address: row.address, similarity, strength: similarity * wordShare };
    })
    .filter((hit) => hit.similarity >= CONCEPT_MIN_SIMILARITY)
    .sort((a, b) => b.similarity - a.similarity || (a.address < b.address ? -1 : 1))
    .slice(0, CONCEPT_TOP_K);
}
