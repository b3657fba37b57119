import { conceptPlan } from './concepts/concept-source.ts';
import type { SemanticHit } from './semantic.ts';
import { plannedSource, type SemanticPlan } from './semantic-source-types.ts';
import type { SqlParams } from './sql-params.ts';
import { vectorPlan } from './vectors/vector-source.ts';

/**
 * The semantic source that runs wherever D1 does (wrangler dev, tests), nothing downloaded: word vectors
 * shipped in code (vectors/), which generalise to wordings nobody listed, plus the concept lexicon (concepts/),
 * which knows the everyday cues word vectors place poorly ("umbrella" → forecast). A hit's strength is the sum
 * of the two; measured on the judged set, either alone does worse (docs/decisions.md). Both halves only read
 * SQL, so their statements run in one batch, or in a batch the search sends anyway (agent-search.ts).
 */

/** Hits handed to fusion, as many as Vectorize is asked for. */
const OFFLINE_TOP_K = 50;

function offlinePlan(text: string, gate?: (params: SqlParams) => string): SemanticPlan {
  const concepts = conceptPlan(text, gate);
  const vectors = vectorPlan(text, gate);
  const split = concepts.statements.length;
  return {
    statements: [...concepts.statements, ...vectors.statements],
    hits: (rows) => merged(concepts.hits(rows.slice(0, split)), vectors.hits(rows.slice(split))),
  };
}

function merged(concepts: SemanticHit[], vectors: SemanticHit[]): SemanticHit[] {
  const byAddress = new Map(concepts.map((hit) => [hit.address, { ...hit }]));
  for (const hit of vectors) {
    const known = byAddress.get(hit.address);
    if (known) {
      known.strength += hit.strength;
      known.similarity = Math.max(known.similarity, hit.similarity);
    } else byAddress.set(hit.address, { ...hit });
  }
  return [...byAddress.values()].sort((a, b) => b.strength - a.strength || (a.address < b.address ? -1 : 1)).slice(0, OFFLINE_TOP_K);
}

export const offlineSource = plannedSource(offlinePlan);
/** Each half alone, for bench:relevance's comparison. */
export const conceptSource = plannedSource(conceptPlan);
export const wordVectorSource = plannedSource(vectorPlan);
