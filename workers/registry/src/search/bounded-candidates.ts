import type { SqlParams } from './sql-params.ts';
import { MATCH_ALONE_MAX_DOCS } from './text/expand.ts';
import type { TermGroup } from './text/fts-query.ts';

/**
 * Bounded candidates (docs/decisions/0166, 0200): a query whose words match many agents ranks only its matches
 * among the preferred agents (the FTS `listing` token of 0013_search_bounded.sql, agents with a high quality
 * prior: AgentRank, text quality, featured and liveness, 0016_search_prior_from_agent_rank.sql), read from
 * search_preferred_fts (0017_search_preferred_index.sql), an index of those agents only, so bm25 walks their
 * doclists and not the whole registry's.
 *
 * Which queries, by cost (0200): bm25 reads every posting of every term of the expression, so a query is
 * narrowed when its words, with the terms standing for them (typo corrections, a typed prefix's completions,
 * synonyms), are together in at least `commonWordDocs` agents' texts, and no word is rare: each word's terms are
 * in at least a fifth of that (10,000 by default, expand.ts's MATCH_ALONE_MAX_DOCS at most). A rarer word is
 * where the user's intent lies, and it already bounds the query (expand.ts matches frequent words only beside it).
 */

/** The narrowed matches a search ranks, the best by bm25: the sequence goes on past them with every other match (agent-text-sql.ts). */
export const PREFERRED_CANDIDATES = 1_000;

/** The least postings of each word's terms for the query to be narrowed. */
const floorOf = (commonWordDocs: number) => Math.min(Math.ceil(commonWordDocs / 5), MATCH_ALONE_MAX_DOCS);

/** The terms whose postings a word costs: itself and what may stand for it. */
const termsOf = (group: TermGroup) => [group.word, ...group.alternatives];

/** The rule, from each word's postings (the documents of its terms, summed). */
function narrowed(wordDocs: readonly number[], commonWordDocs: number): boolean {
  const floor = floorOf(commonWordDocs);
  return wordDocs.length > 0 && wordDocs.every((docs) => docs >= floor) && wordDocs.reduce((a, b) => a + b, 0) >= commonWordDocs;
}

/** `narrowed` in SQL, over the vocabulary (search_words_vocab): for statements built before the lookups ran. */
export function narrowedSql(groups: readonly TermGroup[], commonWordDocs: number, params: SqlParams): string {
  // One JSON parameter of every word's terms: a compound SELECT per word would pass D1's limit on a long request.
  const words = params.add(JSON.stringify(groups.map(termsOf)));
  const docs = `SELECT (SELECT coalesce(sum(doc), 0) FROM search_words_vocab WHERE term IN (SELECT value FROM json_each(w.value))) AS n
      FROM json_each(${words}) w`;
  return `(SELECT min(n) >= ${params.add(floorOf(commonWordDocs))} AND sum(n) >= ${params.add(commonWordDocs)} FROM (${docs}))`;
}

/**
 * `narrowed` for the words as typed, an aggregate over their vocabulary rows (`doc`, one row per word) that a
 * caller reads for something else too: each read counts every word's doclist.
 */
export function typedWordsNarrowedCondition(words: readonly string[], commonWordDocs: number, params: SqlParams): string {
  return `(count(*) = ${words.length} AND min(doc) >= ${params.add(floorOf(commonWordDocs))} AND sum(doc) >= ${params.add(commonWordDocs)})`;
}

/** `narrowed` for the words as typed, from the vocabulary lookup's rows (term, doc) read in the same batch. */
export function typedWordsNarrowed(words: readonly string[], vocabRows: readonly unknown[], commonWordDocs: number): boolean {
  const docs = new Map((vocabRows as { term: string; doc: number }[]).map((row) => [row.term, row.doc]));
  return narrowed(
    words.map((word) => docs.get(word) ?? 0),
    commonWordDocs,
  );
}
