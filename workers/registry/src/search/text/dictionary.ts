import { wordRank } from '../../../../../lib/word-vectors/table.ts';

/**
 * The 40,000 most frequent English words (the shipped word table's list, GloVe 6B; names of places and brands
 * included). A word in it was typed as meant: expansion must not turn it into another word ("trains" is not a
 * typo of "traits", "breach" is not a prefix of "breaches" typed half-way in a finished sentence).
 * The table's own word index (generated with it), which the semantic source reads too.
 */
export function isDictionaryWord(word: string): boolean {
  return wordRank(word) !== undefined;
}
