/**
 * Typo tolerance: one edit (insert, delete, substitute, swap two neighbours) per word.
 *
 * Candidates are looked up in the vocabulary of indexed words (the fts5vocab table `search_words_vocab`,
 * see migrations/0002_search.sql), which needs no extra table kept in step with the data. An edit either
 * leaves the word's first half intact — then the candidate is among the vocabulary words sharing that half,
 * read with one range scan and checked here — or falls in the first half, whose variants (about 35 per
 * letter) are generated and looked up exactly. That halves the lookups of a plain edit neighbourhood.
 */

/** Words shorter than this are not corrected: one edit away from almost anything. */
const TYPO_MIN_CHARS = 4;
/** Longer words are rare typing errors and would make large neighbourhoods. */
const TYPO_MAX_CHARS = 20;
/** Corrections kept per word, most frequent first. */
export const TYPO_CANDIDATES_MAX = 3;

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';

export function isCorrectable(word: string): boolean {
  const length = [...word].length;
  return length >= TYPO_MIN_CHARS && length <= TYPO_MAX_CHARS;
}

/** The intact prefix the range scan reads: the first half of the word. */
export function stablePrefix(word: string): string {
  const chars = [...word];
  return chars.slice(0, Math.ceil(chars.length / 2)).join('');
}

/** Strings one edit away from `word` whose edit touches the first half (changes `stablePrefix(word)`). */
export function firstHalfVariants(word: string): Set<string> {
  const chars = [...word];
  const split = Math.ceil(chars.length / 2);
  // Latin words take Latin letters; other scripts also their own characters (é, ü, ж …).
  const alphabet = new Set([...LETTERS, ...(/\d/.test(word) ? DIGITS : ''), ...chars.filter((char) => !/[a-z0-9]/.test(char))]);
  const variants = new Set<string>();
  for (let i = 0; i < split; i++) {
    const head = chars.slice(0, i).join('');
    const rest = chars.slice(i + 1).join('');
    variants.add(head + rest);
    if (i + 1 < chars.length) variants.add(head + chars[i + 1] + chars[i] + chars.slice(i + 2).join(''));
    for (const letter of alphabet) {
      variants.add(head + letter + rest);
      variants.add(head + letter + chars.slice(i).join(''));
    }
  }
  variants.delete(word);
  return variants;
}

/** True when `b` is exactly one insert, delete, substitution or adjacent swap away from `a`. */
export function isOneEdit(a: string, b: string): boolean {
  const x = [...a];
  const y = [...b];
  if (Math.abs(x.length - y.length) > 1 || a === b) return false;
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  const tail = (p: number, q: number) => x.slice(p).join('') === y.slice(q).join('');
  if (x.length === y.length) return tail(i + 1, i + 1) || (x[i] === y[i + 1] && x[i + 1] === y[i] && tail(i + 2, i + 2));
  return x.length > y.length ? tail(i + 1, i) : tail(i, i + 1);
}
