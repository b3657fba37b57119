import { WORD_TABLE } from './word-table.generated.ts';

/**
 * The shipped word vectors (word-table.generated.ts, built by scripts/word-vectors.ts from GloVe 6B 100d), which
 * the registry's offline semantic search and the chat Worker's offline embeddings share. Each word has a 4-bit
 * code vector and a weight: how rare it is (smooth inverse frequency, Arora et al. 2017: a / (a + p(word)), p
 * from its frequency rank by Zipf's law), so "the parcel" means parcel.
 */

/** Smooth-inverse-frequency constant: words more frequent than about 1 in 1000 count for less. */
const SIF_A = 1e-3;
/** Zipf normaliser of GloVe's 400,000-word list (harmonic number): p(rank r) ≈ 1 / (r · H). */
const ZIPF_H = Math.log(400_000) + 0.5772;

export interface WordTable {
  words: string[];
  index: Map<string, number>;
  /** Components -levels…levels, dims per word. */
  codes: Int8Array;
  /** Each word's weight divided by its code vector's length: scales a code vector to a weighted unit vector. */
  scale: Float32Array;
  dims: number;
}

let decoded: WordTable | null = null;

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

/** The rarity weight of the word at frequency rank `rank` (0-based). */
export function rarityWeight(rank: number): number {
  const p = 1 / ((rank + 1) * ZIPF_H);
  return SIF_A / (SIF_A + p);
}

/** Decoded on first use, then kept for the isolate's life. */
export function wordTable(): WordTable {
  if (decoded) return decoded;
  const { dims, levels } = WORD_TABLE;
  const words = WORD_TABLE.words.split('\n');
  const codes = decodeCodes(WORD_TABLE.codes, words.length * dims, levels);
  const scale = new Float32Array(words.length);
  for (let w = 0; w < words.length; w++) {
    let norm = 0;
    for (let i = w * dims; i < (w + 1) * dims; i++) norm += codes[i]! * codes[i]!;
    scale[w] = rarityWeight(w) / (Math.sqrt(norm) || 1);
  }
  decoded = { words, index: new Map(words.map((word, i) => [word, i])), codes, scale, dims };
  return decoded;
}

/** Text as the table's words are written: lower case, accents removed (as the registry's full-text index folds them). */
export function normalizeText(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '');
}

/** The words of a text, as the table splits them: runs of letters and digits. */
export function textWords(text: string): string[] {
  return normalizeText(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** Adds weight × the words' weighted unit vectors to `into` (words outside the table add nothing). */
export function addWords(into: Float32Array, words: Iterable<string>, weight = 1): Float32Array {
  const { index, codes, scale, dims } = wordTable();
  for (const word of words) {
    const w = index.get(word);
    if (w === undefined) continue;
    const factor = weight * scale[w]!;
    for (let i = 0; i < dims; i++) into[i]! += factor * codes[w * dims + i]!;
  }
  return into;
}

export function normalize(vector: Float32Array): Float32Array {
  let norm = 0;
  for (const x of vector) norm += x * x;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i]! /= norm;
  return vector;
}
