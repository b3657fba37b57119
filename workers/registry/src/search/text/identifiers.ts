/** Identifiers in a query: snake_case, dotted or `key:` names of payload fields. */
const IDENTIFIER = /^[\p{L}\p{N}]+([_.][\p{L}\p{N}]+)+:?$|^[\p{L}\p{N}_]+:$/u;

export interface SplitQuery {
  /** The query without its identifiers. */
  plain: string;
  /**
   * Share of the query that is words rather than identifiers (0–1). "target_temp" or "from_currency" name a
   * payload field, which the lexical ranking matches in the agents' declared parameters; read as everyday
   * words they would suggest other tasks ("temp" → weather), so a semantic source scales its hits by this.
   */
  wordShare: number;
}

export function splitIdentifiers(text: string): SplitQuery {
  const tokens = text.split(/\s+/).filter(Boolean);
  const identifiers = tokens.filter((token) => IDENTIFIER.test(token));
  const plain = tokens.filter((token) => !IDENTIFIER.test(token)).join(' ');
  return { plain, wordShare: tokens.length ? 1 - identifiers.length / tokens.length : 0 };
}
