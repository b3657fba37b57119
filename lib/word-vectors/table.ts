import { indexedRank } from './word-index.ts';
import { WORD_TABLE } from './word-table.generated.ts';

/**
 * The shipped word vectors (word-table.generated.ts, built by scripts/word-vectors.ts from GloVe 6B 100d joined with
 * a sentence encoder distilled into words), which the registry's offline semantic search and the chat Worker's
 * offline embeddings share. Each word has a 4-bit code vector and a weight: how rare it is (smooth inverse
 * frequency, Arora et al. 2017: a / (a + p(word)), p from its frequency rank by Zipf's law), so "the parcel" means
 * parcel.
 */

/** Smooth-inverse-frequency constant: words more frequent than about 1 in 1000 count for less. */
const SIF_A = 1e-3;
/** Zipf normaliser of GloVe's 400,000-word list (harmonic number): p(rank r) ≈ 1 / (r · H). */
const ZIPF_H = Math.log(400_000) + 0.5772;

export interface WordTable {
  words: string[];
  dims: number;
}

let table: WordTable | null = null;

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const SEXTET = new Uint8Array(128);
for (let i = 0; i < BASE64.length; i++) SEXTET[BASE64.charCodeAt(i)] = i;

/** The rarity weight of the word at frequency rank `rank` (0-based). */
function rarityWeight(rank: number): number {
  const p = 1 / ((rank + 1) * ZIPF_H);
  return SIF_A / (SIF_A + p);
}

/** The word list, split on first use (the vectors are decoded per word, when read; the index is generated). */
export function wordTable(): WordTable {
  table ??= { words: WORD_TABLE.words.split('\n'), dims: WORD_TABLE.dims };
  return table;
}

/** The word's frequency rank (its position in the table), or undefined for a word outside the table. */
export function wordRank(word: string): number | undefined {
  return indexedRank(wordTable().words, word);
}

/**
 * Each word's components are decoded when a text first uses it, and kept: decoding the whole table (45,000
 * words) was most of an isolate's first search, while a request or an agent reads a few hundred words.
 */
const decoded = new Map<number, { codes: Int8Array; scale: number }>();

/** The word's 4-bit code vector (components -levels…levels) and the factor scaling it to a rarity-weighted unit vector. */
export function wordVector(w: number): { codes: Int8Array; scale: number } {
  let entry = decoded.get(w);
  if (entry) return entry;
  const { dims, levels } = WORD_TABLE;
  // dims is even (two 4-bit codes a byte) and a multiple of 3 bytes starts a base64 quartet: decode from there.
  const firstByte = (w * dims) / 2;
  const quartet = Math.floor(firstByte / 3);
  const skip = firstByte - quartet * 3;
  const codes = new Int8Array(dims);
  let at = -skip * 2;
  for (let i = quartet * 4; at < dims; i += 4) {
    const bits =
      (SEXTET[WORD_TABLE.codes.charCodeAt(i)]! << 18) |
      (SEXTET[WORD_TABLE.codes.charCodeAt(i + 1)]! << 12) |
      (SEXTET[WORD_TABLE.codes.charCodeAt(i + 2)]! << 6) |
      SEXTET[WORD_TABLE.codes.charCodeAt(i + 3)]!;
    for (const byte of [bits >> 16, (bits >> 8) & 0xff, bits & 0xff]) {
      if (at >= 0 && at < dims) codes[at] = (byte & 0xf) - levels - 1;
      if (at + 1 >= 0 && at + 1 < dims) codes[at + 1] = (byte >> 4) - levels - 1;
      at += 2;
    }
  }
  let norm = 0;
  for (const code of codes) norm += code * code;
  entry = { codes, scale: rarityWeight(w) / (Math.sqrt(norm) || 1) };
  decoded.set(w, entry);
  return entry;
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
  const { dims } = wordTable();
  for (const word of words) {
    const w = wordRank(word);
    if (w === undefined) continue;
    const { codes, scale } = wordVector(w);
    const factor = weight * scale;
    for (let i = 0; i < dims; i++) into[i]! += factor * codes[i]!;
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
