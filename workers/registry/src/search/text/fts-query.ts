import { CONTEXT_WEIGHT } from './context.ts';

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
  /** False for a word too frequent to find agents on its own (expand.ts, MATCH_ALONE_MAX_DOCS). */
  matchesAlone: boolean;
  /** A word of the user's circumstances ("for my plant shop", context.ts): it counts half in coverage (fusion.ts). */
  context: boolean;
}

function quoteFts(word: string): string {
  return `"${word.replaceAll('"', '""')}"`;
}

function groupExpression(group: TermGroup): string {
  const options = [quoteFts(group.word) + (group.prefix ? '*' : ''), ...group.alternatives.map(quoteFts)];
  return options.length === 1 ? options[0]! : `(${options.join(' OR ')})`;
}

/**
 * Any group may match (OR): bm25 sums over the groups, so documents matching more of the words, in weightier
 * fields, rank first. Requiring every word (AND) measured worse on the relevance set: a query word the
 * right agent lacks ("stock analysis" vs "Stock Analyst") dropped it below agents merely mentioning both.
 * When some words are too frequent to match alone, an agent must match one of the others:
 * `(rarer words) AND (all words)`. bm25 then counts the rarer words twice (it sums over the expression's
 * phrases), which only weighs further the words that tell agents apart.
 */
export function matchExpression(groups: readonly TermGroup[]): string {
  const any = groups.map(groupExpression).join(' OR ');
  const alone = groups.filter((group) => group.matchesAlone);
  if (alone.length === 0 || alone.length === groups.length) return any;
  return `(${alone.map(groupExpression).join(' OR ')}) AND (${any})`;
}

/**
 * How much a group counts in coverage (fusion.ts): a context word (CONTEXT_WEIGHT) less than a task word, while still
 * finding and ranking agents ("tax return for my freelance business" needs both). Not in bm25: listing the task's
 * groups twice in the expression would weigh them so too, but reads their postings twice (up to +3 ms a request
 * with context at 100,000 agents) and moved no default figure.
 */
const groupWeight = (group: TermGroup): number => (group.context ? CONTEXT_WEIGHT : 1);

/** Each group's own expression, matched outside the listing column, and its weight: what coverage counts (fusion.ts). */
export function groupExpressions(groups: readonly TermGroup[]): CoveredGroup[] {
  return groups.map((group) => ({ expression: agentTextExpression(groupExpression(group)), weight: groupWeight(group) }));
}

export interface CoveredGroup {
  expression: string;
  weight: number;
}

/** exact_match: the words in this order, adjacent, nothing expanded. */
export function phraseExpression(words: readonly string[]): string {
  return quoteFts(words.join(' '));
}

/**
 * Agent search (search_agents_fts, 0003_search_listing.sql): the user's expression is matched outside the
 * `listing` column, whose token marks agents not listed, so typing "unlisted" finds only agents saying it.
 */
export function agentTextExpression(expression: string): string {
  return `- {listing} : (${expression})`;
}

/** Only listed agents: the FTS index filters them, with no lookup of each match's facts. */
export function listedOnlyExpression(expression: string): string {
  return `(${agentTextExpression(expression)}) NOT listing : unlisted`;
}
