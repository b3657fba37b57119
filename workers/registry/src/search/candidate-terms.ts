import type { SqlRunner } from './sql-runner.ts';

/**
 * Bounds the work of a semantic source's candidate search by the postings it may score, not by the registry's
 * size: the candidates are the best bm25 matches of many terms (the query's words, their nearest words, the
 * lexicon terms of its concepts), and bm25 scores every agent holding any of them, so at 100,000 agents a few
 * everyday terms meant tens of thousands of agents scored per search (~370 ms). Terms are kept in the caller's
 * order of relevance while the agents they occur in (the index's own document counts) fit the budget; a term
 * in more agents than a share of the budget tells agents apart too little to pay for. A registry whose terms
 * all fit (every registry under the budget's size) searches exactly as before.
 */
const POSTINGS_BUDGET = 6000;
/** A single term may take at most this share of the budget. */
const TERM_SHARE_MAX = 0.5;

const VOCAB_LOOKUP = 'SELECT term, doc FROM search_words_vocab WHERE term IN (SELECT value FROM json_each(?1))';

/**
 * `terms` (most relevant first) within the budget, costed by the unstemmed vocabulary's document counts (the
 * stemmed index matches other forms too, so a term may score somewhat more agents than counted). A term no agent
 * uses costs nothing and is dropped.
 */
export async function termsWithinBudget(runner: SqlRunner, terms: readonly string[]): Promise<string[]> {
  const distinct = [...new Set(terms)];
  if (distinct.length === 0) return [];
  const rows = await runner.all<{ term: string; doc: number }>({ sql: VOCAB_LOOKUP, params: [JSON.stringify(distinct)] });
  const docs = new Map(rows.map((row) => [row.term, row.doc]));
  const kept: string[] = [];
  let spent = 0;
  for (const term of distinct) {
    const cost = docs.get(term) ?? 0;
    if (cost === 0 || cost > POSTINGS_BUDGET * TERM_SHARE_MAX || spent + cost > POSTINGS_BUDGET) continue;
    spent += cost;
    kept.push(term);
  }
  return kept;
}
