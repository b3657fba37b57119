/**
 * Splits user text into search words the way FTS5's `unicode61 remove_diacritics 2` tokenizer does: letters
 * and digits form words, everything else (quotes, operators, SQL, emoji, punctuation) separates them.
 * Nothing a user types can therefore reach the FTS5 query parser as syntax.
 */
import { normalizeText } from '../../../../../lib/word-vectors/table.ts';

/** Words searched per query; the rest of a very long text is ignored. */
export const SEARCH_TERMS_MAX = 32;
/** Longer "words" (base64 blobs, pasted hashes) cannot be in the index; an agent address (65 chars) can. */
const SEARCH_TERM_MAX_CHARS = 100;

/** The folding the word vectors use too (lib/word-vectors), so a word is the same word in both. */
export { normalizeText };

export interface TokenizedText {
  /** Distinct words in the order typed. */
  words: string[];
  /** True when the text ends inside a word: that word is still being typed and is matched as a prefix. */
  endsInWord: boolean;
}

export function tokenize(text: string): TokenizedText {
  const normalized = normalizeText(text);
  const words: string[] = [];
  const seen = new Set<string>();
  for (const word of normalized.split(/[^\p{L}\p{N}]+/u)) {
    if (!word || word.length > SEARCH_TERM_MAX_CHARS || seen.has(word)) continue;
    seen.add(word);
    words.push(word);
    if (words.length === SEARCH_TERMS_MAX) break;
  }
  return { words, endsInWord: /[\p{L}\p{N}]$/u.test(normalized) };
}

/**
 * The key under which clicks are counted for a query: its words, sorted, so "weather paris" and
 * "Paris, weather!" share feedback.
 */
export function queryKey(text: string | undefined): string {
  if (!text) return '';
  return [...tokenize(text).words].sort().join(' ');
}
