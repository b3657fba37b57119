import type { SemanticBackend, SemanticHit } from './semantic.ts';
import type { SqlRunner } from './sql-runner.ts';

// A leaf module: offline-source.ts implements the source that semantic-source.ts picks where Vectorize is not bound.

/**
 * Where hybrid search gets its semantic ranking: Workers AI embeddings with Vectorize where both are bound
 * (deployed), else word vectors and the concept lexicon shipped in code (offline-source.ts). Either list is fused
 * with the lexical ranking the same way (fusion.ts), so both paths share ranking and tests.
 */
export interface SemanticSource {
  /** Also the `x-semantic-source` response header. */
  kind: 'vectorize' | 'offline';
  hits(runner: SqlRunner, text: string): Promise<SemanticHit[]>;
  /** The Vectorize backend, whose index the request then brings up to date. */
  backend?: SemanticBackend;
}
