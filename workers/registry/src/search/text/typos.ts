/**
 * Typo tolerance: one edit (insert, delete, substitute, swap two neighbours) per word.
 *
 * Candidates are generated here and looked up in the vocabulary of indexed words (the fts5vocab table
 * `search_words_vocab`, see migrations/0002_search.sql), in one query per search. Generating the edit
 * neighbourhood of the query word costs ~1,000 strings for a 12-letter word, all looked up with one index
 * probe each; it needs no extra table kept in step with the data, unlike a deletion-neighbourhood index.
 */

/** Words shorter than this are not corrected: one edit away from almost anything. */
export const TYPO_MIN_CHARS = 4;
/** Longer words are rare typing errors and would make large neighbourhoods. */
export const TYPO_MAX_CHARS = 20;
/** Corrections kept per word, most frequent first. */
export const TYPO_CANDIDATES_MAX = 3;

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

export function isCorrectable(word: string): boolean {
  const length = [...word].length;
  return length >= TYPO_MIN_CHARS && length <= TYPO_MAX_CHARS;
}

/** Every string one edit away from `word` (the word itself excluded). */
export function oneEditVariants(word: string): Set<string> {
  const chars = [...word];
  const alphabet = new Set([...ALPHABET, ...chars]);
  const variants = new Set<string>();
  for (let i = 0; i <= chars.length; i++) {
    const head = chars.slice(0, i).join('');
    const tail = chars.slice(i).join('');
    const rest = chars.slice(i + 1).join('');
    if (i < chars.length) variants.add(head + rest);
    if (i < chars.length - 1) variants.add(head + chars[i + 1] + chars[i] + chars.slice(i + 2).join(''));
    for (const letter of alphabet) {
      variants.add(head + letter + tail);
      if (i < chars.length) variants.add(head + letter + rest);
    }
  }
  variants.delete(word);
  return variants;
}
