/** Identifiers in a query: snake_case, camelCase, dotted or `key:` names of payload fields. */
const IDENTIFIER = /^[\p{L}\p{N}]+([_.][\p{L}\p{N}]+)+:?$|^[\p{L}\p{N}_]+:$|^\p{Ll}+(\p{Lu}[\p{Ll}\p{N}]*)+:?$/u;
/** A field name of several parts (snake_case or dotted, camelCase once made snake_case), as one token. */
const MULTI_PART = /^[\p{L}\p{N}]+([_.][\p{L}\p{N}]+)+:?$/u;
/** A camelCase field name ("sleepLog", "targetTemp"): lower-case start, then capitalised parts. */
const CAMEL_CASE = /^\p{Ll}+(\p{Lu}[\p{Ll}\p{N}]*)+(?=:?$)/u;

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
  const identifiers = tokens.filter(isIdentifier);
  const plain = tokens.filter((token) => !isIdentifier(token)).join(' ');
  return { plain, wordShare: tokens.length ? 1 - identifiers.length / tokens.length : 0 };
}

/** A sentence's full stop after a field name is no part of it ("sleep_log. " ends with the field sleep_log). */
const isIdentifier = (token: string): boolean => IDENTIFIER.test(token.replace(/\.$/, ''));

/**
 * The text with its camelCase field names written in snake_case ("partySize" → "party_Size"), before folding to
 * lower case loses where their parts meet: both spellings then name the field as its parts.
 */
export function snakeCaseIdentifiers(text: string): string {
  return text.replace(/\S+/gu, (token) => (CAMEL_CASE.test(token) ? token.replace(/(?<=[\p{Ll}\p{N}])(?=\p{Lu})/gu, '_') : token));
}

/**
 * The parts of a field name of several parts ("from_station" → ["from", "station"]), null for anything else. Read
 * as loose words, a field's parts match agents using them apart ("station" in a weather agent's "station or town",
 * "from" a stopword): the field is the parts side by side, as the index splits "from_station".
 */
export function identifierParts(token: string): string[] | null {
  return MULTI_PART.test(token) ? token.replace(/:$/, '').split(/[_.]/) : null;
}
