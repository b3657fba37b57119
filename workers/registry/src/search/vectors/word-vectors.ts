import { STOPWORDS } from '../text/stopwords.ts';
import { normalizeText } from '../text/tokenize.ts';
import { WORD_TABLE } from './word-table.generated.ts';

/**
 * Text embeddings from shipped word vectors (word-table.generated.ts, built by scripts/word-vectors.ts): a
 * text's vector is the sum of its words' unit vectors, each weighted by how rare the word is (smooth inverse
 * frequency, Arora et al. 2017: a / (a + p(word)), p from the word's frequency rank by Zipf's law), so "the
 * parcel" means parcel. Words outside the table (names, codes, typos) add nothing; the lexical ranking has them.
 */

export type TextVector = Float32Array;

/** Smooth-inverse-frequency constant: words more frequent than about 1 in 1000 count for less. */
const SIF_A = 1e-3;
/** Zipf normaliser of GloVe's 400,000-word list (harmonic number): p(rank r) ≈ 1 / (r · H). */
const ZIPF_H = Math.log(400_000) + 0.5772;

interface Table {
  words: string[];
  index: Map<string, number>;
  /** Components -levels…levels, dims per word. */
  codes: Int8Array;
  /** Each word's weight divided by its code vector's length: scales a code vector to a weighted unit vector. */
  scale: Float32Array;
  dims: number;
}

let decoded: Table | null = null;

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** The table's 4-bit codes as signed components, straight from base64 (no intermediate binary string). */
function decodeCodes(base64: string, count: number, levels: number): Int8Array {
  const sextet = new Uint8Array(128);
  for (let i = 0; i < BASE64.length; i++) sextet[BASE64.charCodeAt(i)] = i;
  const codes = new Int8Array(count);
  let at = 0;
  for (let i = 0; i + 3 < base64.length && at < count; i += 4) {
    const bits =
      (sextet[base64.charCodeAt(i)]! << 18) |
      (sextet[base64.charCodeAt(i + 1)]! << 12) |
      (sextet[base64.charCodeAt(i + 2)]! << 6) |
      sextet[base64.charCodeAt(i + 3)]!;
    for (const byte of [bits >> 16, (bits >> 8) & 0xff, bits & 0xff]) {
      codes[at++] = (byte & 0xf) - levels - 1;
      codes[at++] = (byte >> 4) - levels - 1;
    }
  }
  return codes;
}

/** Decoded on first use, then kept for the isolate's life. */
function table(): Table {
  if (decoded) return decoded;
  const { dims, levels } = WORD_TABLE;
  const words = WORD_TABLE.words.split('\n');
  const codes = decodeCodes(WORD_TABLE.codes, words.length * dims, levels);
  const scale = new Float32Array(words.length);
  for (let w = 0; w < words.length; w++) {
    let norm = 0;
    for (let i = w * dims; i < (w + 1) * dims; i++) norm += codes[i]! * codes[i]!;
    const p = 1 / ((w + 1) * ZIPF_H);
    scale[w] = SIF_A / (SIF_A + p) / (Math.sqrt(norm) || 1);
  }
  decoded = { words, index: new Map(words.map((word, i) => [word, i])), codes, scale, dims };
  return decoded;
}

/** The words of a text that carry meaning, as the full-text index splits them. */
export function contentWords(text: string): string[] {
  return normalizeText(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word && !STOPWORDS.has(word));
}

/** How many of a text's words (stopwords included) the table knows. */
export function knownWords(text: string): number {
  const { index } = table();
  return normalizeText(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => index.has(word)).length;
}

export function emptyVector(): TextVector {
  return new Float32Array(table().dims);
}

/** Adds weight × the text's words' weighted vectors to `into`. */
export function addText(into: TextVector, text: string, weight = 1): TextVector {
  const { index, codes, scale, dims } = table();
  for (const word of contentWords(text)) {
    const w = index.get(word);
    if (w === undefined) continue;
    const factor = weight * scale[w]!;
    for (let i = 0; i < dims; i++) into[i]! += factor * codes[w * dims + i]!;
  }
  return into;
}

export function normalize(vector: TextVector): TextVector {
  let norm = 0;
  for (const x of vector) norm += x * x;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i]! /= norm;
  return vector;
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
  const { words, codes, scale, dims } = table();
  const best: { word: number; score: number }[] = [];
  for (let w = 0; w < words.length; w++) {
    let dot = 0;
    const base = w * dims;
    for (let i = 0; i < dims; i++) dot += vector[i]! * codes[base + i]!;
    // The rarity weight is divided out: closeness, not rarity, picks neighbours.
    const p = 1 / ((w + 1) * ZIPF_H);
    const score = (dot * scale[w]!) / (SIF_A / (SIF_A + p));
    if (best.length < count || score > best[best.length - 1]!.score) {
      best.push({ word: w, score });
      best.sort((a, b) => b.score - a.score);
      if (best.length > count) best.pop();
    }
  }
  return best.map((entry) => words[entry.word]!);
}
