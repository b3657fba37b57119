import { addWords, normalize, rarityWeight, textWords, wordTable } from '../../../../../lib/word-vectors/table.ts';
import { STOPWORDS } from '../text/stopwords.ts';

/**
 * Text embeddings from the shipped word vectors (lib/word-vectors): a text's vector is the sum of its content
 * words' unit vectors, each weighted by how rare the word is, so "the parcel" means parcel. Words outside the
 * table (names, codes, typos) add nothing; the lexical ranking has them.
 */

export type TextVector = Float32Array;

export { normalize };

/** The words of a text that carry meaning, as the full-text index splits them. */
export function contentWords(text: string): string[] {
  return textWords(text).filter((word) => !STOPWORDS.has(word));
}

/** How many of a text's words (stopwords included) the table knows. */
export function knownWords(text: string): number {
  const { index } = wordTable();
  return textWords(text).filter((word) => index.has(word)).length;
}

export function emptyVector(): TextVector {
  return new Float32Array(wordTable().dims);
}

/** Adds weight × the text's content words' weighted vectors to `into`. */
export function addText(into: TextVector, text: string, weight = 1): TextVector {
  return addWords(into, contentWords(text), weight);
}

export function cosine(a: TextVector, b: TextVector): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot;
}

/**
 * The `count` words whose vectors lie closest to a unit vector (one pass over the table, ~4 M multiply-adds):
 * the words an agent doing what the vector means would likely use.
 */
export function nearestWords(vector: TextVector, count: number): string[] {
  const { words, codes, scale, dims } = wordTable();
  const best: { word: number; score: number }[] = [];
  for (let w = 0; w < words.length; w++) {
    let dot = 0;
    const base = w * dims;
    for (let i = 0; i < dims; i++) dot += vector[i]! * codes[base + i]!;
    // The rarity weight is divided out: closeness, not rarity, picks neighbours.
    const score = (dot * scale[w]!) / rarityWeight(w);
    if (best.length < count || score > best[best.length - 1]!.score) {
      best.push({ word: w, score });
      best.sort((a, b) => b.score - a.score);
      if (best.length > count) best.pop();
    }
  }
  return best.map((entry) => words[entry.word]!);
}
