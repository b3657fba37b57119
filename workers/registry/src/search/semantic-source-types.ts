import type { SemanticBackend, SemanticHit } from './semantic.ts';
import type { SqlRunner } from './sql-runner.ts';

// A leaf module: concepts/concept-source.ts implements the source that semantic-source.ts picks.

/**
 * Where hybrid search gets its semantic ranking: Workers AI embeddings with Vectorize where both are bound
 * (deployed), else the concept model shipped in code (concepts/). Either list is fused with the lexical
 * ranking by the same reciprocal-rank fusion (agent-text-sql.ts), so both paths share ranking and tests.
 */
export interface SemanticSource {
  /** Also the `x-semantic-source` response header. */
  kind: 'vectorize' | 'concepts';
  hits(runner: SqlRunner, text: string): Promise<SemanticHit[]>;
  /** The Vectorize backend, whose index the request then brings up to date. */
  backend?: SemanticBackend;
}
