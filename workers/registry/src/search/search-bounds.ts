import { envCount } from '../../../../lib/config/env-number.ts';

/**
 * What bounds a search's cost whatever the registry's size (docs/decisions/0166), from the Worker's vars
 * (wrangler.toml); the tests set small values so a small corpus takes the bounded paths.
 */
export interface SearchBounds {
  /** A query whose words' postings reach this, none under a fifth of it, ranks only its preferred matches (bounded-candidates.ts). */
  commonWordDocs: number;
  /** Totals above this are not counted exactly: `total` is this bound and `total_is_estimate` is true. */
  exactTotalMax: number;
}

export const DEFAULT_SEARCH_BOUNDS: SearchBounds = { commonWordDocs: 20_000, exactTotalMax: 10_000 };

export function searchBounds(env: { SEARCH_COMMON_WORD_DOCS?: string; SEARCH_EXACT_TOTAL_MAX?: string }): SearchBounds {
  return {
    commonWordDocs: envCount(env.SEARCH_COMMON_WORD_DOCS, DEFAULT_SEARCH_BOUNDS.commonWordDocs),
    exactTotalMax: envCount(env.SEARCH_EXACT_TOTAL_MAX, DEFAULT_SEARCH_BOUNDS.exactTotalMax),
  };
}

/** Text matches a function search ranks, and functions a listing without text reads, at most (function-search.ts). */
const FUNCTION_CANDIDATES = 1_000;

export function functionCandidates(env: { SEARCH_FUNCTION_CANDIDATES?: string }): number {
  return envCount(env.SEARCH_FUNCTION_CANDIDATES, FUNCTION_CANDIDATES);
}
