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

/** Each phrase as words, grouped by its first word, longest first: "what is the best way to" goes whole rather than leaving "what is the". */
const PHRASES_BY_FIRST_WORD = new Map<string, string[][]>();
for (const phrase of [...FILLER_PHRASES].sort((a, b) => b.length - a.length)) {
  const words = phrase.split(' ');
  PHRASES_BY_FIRST_WORD.set(words[0]!, [...(PHRASES_BY_FIRST_WORD.get(words[0]!) ?? []), words]);
}

/** Runs of letters and digits, as the tokenizer splits words. */
const WORD = /[\p{L}\p{N}]+/gu;

/**
 * The request with its filler phrases blanked out (folded as the tokenizer folds it); the words left are the task.
 * A phrase is consecutive whole words, whatever separates them. Matched on the words rather than by one regular
 * expression of every phrase: compiling that expression cost the isolate's first search 9 ms.
 */
export function taskText(text: string): string {
  const normalized = normalizeText(text);
  const words = [...normalized.matchAll(WORD)];
  let task = '';
  let from = 0;
  for (let i = 0; i < words.length; i++) {
    const phrase = PHRASES_BY_FIRST_WORD.get(words[i]![0])?.find((candidate) => candidate.every((word, k) => words[i + k]?.[0] === word));
    if (!phrase) continue;
    const last = words[i + phrase.length - 1]!;
    task += `${normalized.slice(from, words[i]!.index)} `;
    from = last.index + last[0].length;
    i += phrase.length - 1;
  }
  return task + normalized.slice(from);
}
