import type { SemanticHit } from '../semantic.ts';
import { termsWithinBudget } from '../candidate-terms.ts';
import type { SqlRunner } from '../sql-runner.ts';
import { quoteFts } from '../text/fts-query.ts';
import { splitIdentifiers } from '../text/identifiers.ts';
import { addText, contentWords, cosine, emptyVector, knownWords, nearestWords, normalize, type TextVector } from './word-vectors.ts';

/**
 * The offline semantic source's word-vector half: the query's vector against the vectors of candidate agents,
 * computed from the text the full-text index holds (so always in step with the agent; no table to backfill).
 * Candidates are the best bm25 matches of the query's words and of the table's words nearest to its meaning
 * ("dollars yen" → currency, exchange, …), so an agent that shares no word with the request can still be found.
 */

/** Weight of each field in an agent's vector: what it does (description, use cases, tags) over how it is named. */
const FIELD_WEIGHTS = { name: 1, tags: 2, description: 3, use_cases: 2, functions: 0.5, readme: 2 } as const;

type AgentText = Record<keyof typeof FIELD_WEIGHTS, string>;

/** Table words nearest to the query's meaning added to its candidate search (30 left answers out of the candidates). */
const NEIGHBOUR_WORDS = 100;
/** Candidates read per query. */
const VECTOR_CANDIDATES = 200;
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

interface CandidateRow extends AgentText {
  address: string;
}

/** README characters read (its start says what the agent does): bounds the work per candidate whatever a README holds. */
const README_CHARS = 4000;

/**
 * Markdown images and links' targets, HTML tags and URLs: the same in every README (badges, `<use_case>`),
 * they would pull every agent's vector the same way. Repeats are bounded (200 characters tried from any
 * position), so a hostile README costs at most README_CHARS × 200 steps.
 */
const MARKUP = /!\[[^\]]{0,200}\]\([^)]{0,200}\)|\]\([^)]{0,200}\)|<[^<>]{0,200}>|https?:\/\/\S{1,200}/g;

function agentVector(text: AgentText): TextVector {
  const vector = emptyVector();
  for (const [field, weight] of Object.entries(FIELD_WEIGHTS) as [keyof AgentText, number][]) {
    addText(vector, field === 'readme' ? (text.readme ?? '').slice(0, README_CHARS).replace(MARKUP, ' ') : (text[field] ?? ''), weight);
  }
  return normalize(vector);
}

export async function vectorHits(runner: SqlRunner, text: string): Promise<SemanticHit[]> {
  const { plain, wordShare } = splitIdentifiers(text);
  if (knownWords(plain) < MIN_WORDS) return [];
  const query = normalize(addText(emptyVector(), plain));
  if (!query.some((x) => x !== 0)) return [];
  const terms = await termsWithinBudget(runner, [...contentWords(plain), ...nearestWords(query, NEIGHBOUR_WORDS)]);
  if (terms.length === 0) return [];
  // Every word is quoted: no FTS syntax can come from the request.
  const match = `- {listing} : (${terms.map(quoteFts).join(' OR ')})`;
  const rows = await runner.all<CandidateRow>({
    sql: `SELECT address, name, tags, description, use_cases, functions, readme FROM search_agents_fts
          WHERE search_agents_fts MATCH ?1 ORDER BY rank LIMIT ?2`,
    params: [match, VECTOR_CANDIDATES],
  });
  return rows
    .map((row) => {
      const similarity = cosine(query, agentVector(row));
      return { address: row.address, similarity, strength: (wordShare * Math.max(0, similarity - VECTOR_FLOOR)) / (1 - VECTOR_FLOOR) };
    })
    .filter((hit) => hit.strength > 0)
    .sort((a, b) => b.similarity - a.similarity || (a.address < b.address ? -1 : 1))
    .slice(0, VECTOR_TOP_K);
}
