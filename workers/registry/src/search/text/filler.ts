import { normalizeText } from './tokenize.ts';

/**
 * The task of a request without the phrases that only ask ("I was wondering whether…", "is there a way to…",
 * "any ideas"). Single filler words are stopwords (stopwords.ts); these phrases hold words that carry a topic
 * elsewhere ("way" is a route, "figures" a table, "ideas" a gift), so they are removed as phrases, before the
 * words are read, by the lexical and the semantic side alike. A general list of how requests are phrased, not
 * of any query.
 */
const FILLER_PHRASES: readonly string[] = [
  'i was wondering',
  'i am wondering',
  'im wondering',
  'just wondering',
  'is there a way to',
  'is there any way to',
  'what is the best way to',
  'best way to',
  'is it possible to',
  'would it be possible to',
  'figure out',
  'find out',
  'work out whether',
  'any ideas',
  'any idea',
  'do you think',
  'what do you think',
  'go about',
  'point me to',
  'point me at',
  'can you recommend',
  'could you recommend',
  'in a nutshell',
  'as soon as possible',
  'at the moment',
];

/** Phrases are words of letters only, so none needs escaping. Longest phrases first, so "what is the best way to" goes whole rather than leaving "what is the". */
const FILLER = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:${[...FILLER_PHRASES]
    .sort((a, b) => b.length - a.length)
    .map((phrase) => phrase.split(' ').join('[^\\p{L}\\p{N}]+'))
    .join('|')})(?![\\p{L}\\p{N}])`,
  'gu',
);

/** The request with its filler phrases blanked out (folded as the tokenizer folds it); the words left are the task. */
export function taskText(text: string): string {
  return normalizeText(text).replace(FILLER, ' ');
}
