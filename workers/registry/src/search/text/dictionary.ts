import { wordRank } from '../../../../../lib/word-vectors/table.ts';

/**
 * The shipped word table's 45,000 words: the 40,000 most frequent in GloVe 6B (names of places and brands
 * included) and 5,000 everyday words of spoken English (scripts/word-vectors.ts). A word in it was typed as meant:
 * expansion must not turn it into another word ("trains" is not a typo of "traits", "breach" is not a prefix of
 * "breaches" typed half-way in a finished sentence).
 * The table's own word index (generated with it), which the semantic source reads too.
 */
export function isDictionaryWord(word: string): boolean {
  return wordRank(word) !== undefined;
}
