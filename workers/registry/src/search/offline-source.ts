import { conceptHits } from './concepts/concept-source.ts';
import type { SemanticHit } from './semantic.ts';
import type { SemanticSource } from './semantic-source-types.ts';
import type { SqlRunner } from './sql-runner.ts';
import { vectorHits } from './vectors/vector-source.ts';

/**
 * The semantic source that runs wherever D1 does (wrangler dev, tests), nothing downloaded: word vectors
 * shipped in code (vectors/), which generalise to wordings nobody listed, plus the concept lexicon (concepts/),
 * which knows the everyday cues word vectors place poorly ("umbrella" → forecast). A hit's strength is the sum
 * of the two; measured on the judged set, either alone does worse (docs/decisions.md).
 */

/** Hits handed to fusion, as many as Vectorize is asked for. */
const OFFLINE_TOP_K = 50;

async function offlineHits(runner: SqlRunner, text: string): Promise<SemanticHit[]> {
  const [concepts, vectors] = await Promise.all([conceptHits(runner, text), vectorHits(runner, text)]);
  const merged = new Map(concepts.map((hit) => [hit.address, { ...hit }]));
  for (const hit of vectors) {
    const known = merged.get(hit.address);
    if (known) {
      known.strength += hit.strength;
      known.similarity = Math.max(known.similarity, hit.similarity);
    } else merged.set(hit.address, { ...hit });
  }
  return [...merged.values()].sort((a, b) => b.strength - a.strength || (a.address < b.address ? -1 : 1)).slice(0, OFFLINE_TOP_K);
}

export const offlineSource: SemanticSource = { kind: 'offline', hits: offlineHits };
/** Each half alone, for bench:relevance's comparison. */
export const conceptSource: SemanticSource = { kind: 'offline', hits: conceptHits };
export const wordVectorSource: SemanticSource = { kind: 'offline', hits: vectorHits };
