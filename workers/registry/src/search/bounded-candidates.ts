import type { SqlParams } from './sql-params.ts';
import { quoteFts } from './text/fts-query.ts';

/**
 * Bounded candidates for common words (docs/decisions/0166): when every word of a query is in at least
 * `commonWordDocs` agents, the search ranks only its matches among the preferred agents (the FTS `listing`
 * token of 0013_search_bounded.sql, agents with a high quality prior: AgentRank, text quality, featured and
 * liveness since 0016_search_prior_from_agent_rank.sql, docs/decisions/0198), so bm25 scores an intersection the
 * FTS index finds, not every agent that mentions "data".
 */

/** The listing token of preferred agents (0013_search_bounded.sql); preferred agents are always listed. */
const PREFERRED = 'preferred';

/**
 * The user's words (fts-query.ts's expression) narrowed to preferred agents. Unlike other searches, the words are
 * not kept out of the `listing` column: a column filter makes FTS5 read every match's positions (at a million
 * agents, "data" among preferred agents counted in 46–74 ms without it, 75–143 ms with it, load 18). The column
 * holds only `preferred` and `unlisted`, so what that lets in is a search for those words.
 */
export function preferredOnly(expression: string): string {
  return `(${expression}) AND listing : ${quoteFts(PREFERRED)}`;
}

/** SQL, true when every word is in at least `commonWordDocs` agents (the vocabulary the lookups read). */
export function everyWordCommonSql(words: readonly string[], commonWordDocs: number, params: SqlParams): string {
  return `((SELECT count(*) FROM search_words_vocab WHERE term IN ${params.list(words)} AND doc >= ${params.add(commonWordDocs)}) = ${params.add(words.length)})`;
}

/** everyWordCommonSql's answer, from the vocabulary lookup's rows (term, doc) read in the same batch. */
export function everyWordCommon(words: readonly string[], vocabRows: readonly unknown[], commonWordDocs: number): boolean {
  const docs = new Map((vocabRows as { term: string; doc: number }[]).map((row) => [row.term, row.doc]));
  return words.every((word) => (docs.get(word) ?? 0) >= commonWordDocs);
}
