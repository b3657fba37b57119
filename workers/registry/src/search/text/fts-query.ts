/**
 * Builds FTS5 MATCH expressions. Every word goes in double quotes (FTS5 strings), so it is matched as
 * text, never read as an operator (AND, OR, NOT, NEAR), column filter or bracket.
 */

/** One searched word and what else may stand for it. */
export interface TermGroup {
  word: string;
  /** Typo corrections and synonyms, each matched like the word itself. */
  alternatives: string[];
  /** Match words starting with `word` (the word being typed). */
  prefix: boolean;
}

export type MatchMode = 'all' | 'any';

export function quoteFts(word: string): string {
  return `"${word.replaceAll('"', '""')}"`;
}

function groupExpression(group: TermGroup): string {
  const options = [quoteFts(group.word) + (group.prefix ? '*' : ''), ...group.alternatives.map(quoteFts)];
  return options.length === 1 ? options[0]! : `(${options.join(' OR ')})`;
}

/** `all`: every group must match (AND); `any`: at least one (OR), bm25 then favours documents matching more. */
export function matchExpression(groups: readonly TermGroup[], mode: MatchMode): string {
  return groups.map(groupExpression).join(mode === 'all' ? ' AND ' : ' OR ');
}

/** exact_match: the words in this order, adjacent, nothing expanded. */
export function phraseExpression(words: readonly string[]): string {
  return quoteFts(words.join(' '));
}
