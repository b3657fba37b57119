import { WORD_TABLE } from '../../../../../lib/word-vectors/word-table.generated.ts';

/**
 * The 40,000 most frequent English words (the shipped word table's list, GloVe 6B; names of places and brands
 * included). A word in it was typed as meant: expansion must not turn it into another word ("trains" is not a
 * typo of "traits", "breach" is not a prefix of "breaches" typed half-way in a finished sentence).
 * Only the word list is split (a few ms, once per isolate), not the vectors.
 */
let words: ReadonlySet<string> | null = null;

export function isDictionaryWord(word: string): boolean {
  words ??= new Set(WORD_TABLE.words.split('\n'));
  return words.has(word);
}
