import { addWords, normalize, textWords, wordRank, wordTable } from '../../../../../lib/word-vectors/table.ts';
import { STOPWORDS } from '../text/stopwords.ts';

/**
 * Text embeddings from the shipped word vectors (lib/word-vectors): a text's vector is the sum of its content
 * words' unit vectors, each weighted by how rare the word is, so "the parcel" means parcel. Words outside the
 * table (names, codes, typos) add nothing; the lexical ranking has them.
 */

export type TextVector = Float32Array;

export { normalize };

/** The words of a text that carry meaning, as the full-text index splits them. */
function contentWords(text: string): string[] {
  return textWords(text).filter((word) => !STOPWORDS.has(word));
}

/** How many of a text's words (stopwords included) the table knows. */
export function knownWords(text: string): number {
  return textWords(text).filter((word) => wordRank(word) !== undefined).length;
}

export function emptyVector(): TextVector {
  return new Float32Array(wordTable().dims);
}

/** Adds weight × the text's content words' weighted vectors to `into`. */
export function addText(into: TextVector, text: string, weight = 1): TextVector {
  return addWords(into, contentWords(text), weight);
}
