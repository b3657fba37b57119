import { wordTable } from '../../../../../lib/word-vectors/table.ts';

/**
 * The 40,000 most frequent English words (the shipped word table's list, GloVe 6B; names of places and brands
 * included). A word in it was typed as meant: expansion must not turn it into another word ("trains" is not a
 * typo of "traits", "breach" is not a prefix of "breaches" typed half-way in a finished sentence).
 * The table's own word index, which the semantic source reads too: the list is split once per isolate.
 */
export function isDictionaryWord(word: string): boolean {
  return wordTable().index.has(word);
}
