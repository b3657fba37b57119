import { WORD_INDEX } from './word-index.generated.ts';

/**
 * The word table's index from a word to its position (frequency rank), built when the table is generated
 * (scripts/word-index.ts) instead of in each isolate: building a Map of the 40,000 words was the largest part
 * of an isolate's first search. An open-addressing hash table (FNV-1a, linear probing) of 2^bits slots, each
 * three base64 digits holding rank + 1 (0: empty), read in place: no decoding before the first look-up.
 */

const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DIGIT = new Uint8Array(128);
for (let i = 0; i < DIGITS.length; i++) DIGIT[DIGITS.charCodeAt(i)] = i;

/** FNV-1a over the word's UTF-16 code units (the table's words are ASCII). */
function wordHash(word: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) hash = Math.imul(hash ^ word.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** The slot sequence a word probes: its hash's slot, then each next one, wrapping. */
export function probe(word: string, bits: number): (step: number) => number {
  const mask = (1 << bits) - 1;
  const start = wordHash(word) & mask;
  return (step) => (start + step) & mask;
}

/** One slot's three base64 digits. */
export function encodeSlot(entry: number): string {
  return DIGITS[(entry >> 12) & 63]! + DIGITS[(entry >> 6) & 63]! + DIGITS[entry & 63]!;
}

function slotEntry(slot: number): number {
  const at = slot * 3;
  const { slots } = WORD_INDEX;
  return (DIGIT[slots.charCodeAt(at)]! << 12) | (DIGIT[slots.charCodeAt(at + 1)]! << 6) | DIGIT[slots.charCodeAt(at + 2)]!;
}

/** The word's position in `words` (the table's list, which the index was built from), or undefined. */
export function indexedRank(words: readonly string[], word: string): number | undefined {
  const slotOf = probe(word, WORD_INDEX.bits);
  for (let step = 0; ; step++) {
    const entry = slotEntry(slotOf(step));
    if (entry === 0) return undefined;
    if (words[entry - 1] === word) return entry - 1;
  }
}
