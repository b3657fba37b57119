import { STOPWORDS } from './stopwords.ts';
import { normalizeText } from './tokenize.ts';

/**
 * The user's circumstances in a request: a phrase led by a preposition and a possessive ("a logo for my plant
 * shop", "the vulnerabilities in our project") names the user's situation, not the capability asked for; the
 * head of the request ("a logo", "vulnerabilities") does. English grammar, not a list of queries: such a
 * prepositional phrase is an adjunct of the task (purpose or beneficiary: "for"; place: "in", "at", "near",
 * "around"; source: "from"), and the possessive marks it as the user's own. "to" and "on" are left out: they
 * mostly introduce an argument of the task's verb ("what does that do to my handicap", "panels on my roof"),
 * and "about", "of" and "with" its object ("questions about my visa", "help with my taxes").
 * The phrase is the noun phrase after the possessive: its words up to the next function word or punctuation
 * ("for my plant shop, in red" → "plant shop"), a possessive "'s" included.
 */
const PREPOSITIONS: ReadonlySet<string> = new Set(['for', 'in', 'at', 'from', 'near', 'around']);
const POSSESSIVES: ReadonlySet<string> = new Set(['my', 'our', 'your', 'his', 'her', 'their']);

/** How much a context word counts beside a task word, lexically (fts-query.ts) and semantically (the offline source). */
export const CONTEXT_WEIGHT = 0.5;

/** Closed-class words (prepositions, conjunctions) that end a noun phrase though they are not stopwords. */
const PHRASE_ENDS: ReadonlySet<string> = new Set(
  'without before after while because during under over since until unless through via per than though although whose once'.split(' '),
);

/** Runs of letters and digits, as the tokenizer splits words. */
const WORD = /[\p{L}\p{N}]+/gu;

export interface RequestParts {
  /** The request's words outside its context phrases, as one text. */
  task: string;
  /** The context phrases' words that are not also task words, as one text (empty when the request has none). */
  context: string;
}

/**
 * The request split into task and context. A request whose every word is in context phrases ("my plant shop")
 * is all task: there is nothing else to read.
 */
export function splitContext(text: string): RequestParts {
  const normalized = normalizeText(text);
  const words = [...normalized.matchAll(WORD)];
  const inContext = new Array<boolean>(words.length).fill(false);
  for (let i = 0; i + 2 < words.length; i++) {
    if (!PREPOSITIONS.has(words[i]![0]) || !POSSESSIVES.has(words[i + 1]![0]) || !adjacent(normalized, words, i)) continue;
    let k = i + 2;
    while (
      k < words.length &&
      adjacent(normalized, words, k - 1) &&
      ((!STOPWORDS.has(words[k]![0]) && !PHRASE_ENDS.has(words[k]![0])) || isClitic(normalized, words, k))
    ) {
      inContext[k] = true;
      k++;
    }
    i = k - 1;
  }
  const task = words.filter((_, i) => !inContext[i]).map((word) => word[0]);
  const taskWords = new Set(task);
  const contentTask = task.some((word) => !STOPWORDS.has(word));
  if (!contentTask) return { task: normalized, context: '' };
  const context = words.filter((word, i) => inContext[i] && !taskWords.has(word[0])).map((word) => word[0]);
  return { task: task.join(' '), context: context.join(' ') };
}

/** Word i and word i + 1 are separated by spaces or an apostrophe only: no punctuation ends the phrase between them. */
function adjacent(text: string, words: RegExpMatchArray[], i: number): boolean {
  const end = words[i]!.index! + words[i]![0].length;
  return /^[\s'’]+$/u.test(text.slice(end, words[i + 1]!.index));
}

/** The "s" of a possessive ("my bakery's sign"), which continues the noun phrase. */
function isClitic(text: string, words: RegExpMatchArray[], k: number): boolean {
  return words[k]![0] === 's' && /['’]$/u.test(text.slice(0, words[k]!.index));
}
