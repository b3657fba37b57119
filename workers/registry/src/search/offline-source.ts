import { conceptPlan } from './concepts/concept-source.ts';
import { mergedHits } from './merged-hits.ts';
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

function offlinePlan(text: string, gate?: (params: SqlParams) => string): SemanticPlan {
  const concepts = conceptPlan(text, gate);
  const vectors = vectorPlan(text, gate);
  const split = concepts.statements.length;
  return {
    statements: [...concepts.statements, ...vectors.statements],
    hits: (rows) => mergedHits(concepts.hits(rows.slice(0, split)), vectors.hits(rows.slice(split))),
  };
}

export const offlineSource = plannedSource(offlinePlan);
/** Each half alone, for bench:relevance's comparison. */
export const conceptSource = plannedSource(conceptPlan);
export const wordVectorSource = plannedSource(vectorPlan);
