import type { SemanticBackend, SemanticHit } from './semantic.ts';
import type { SqlParams } from './sql-params.ts';
import type { SqlRunner, SqlStatement } from './sql-runner.ts';

// A leaf module: offline-source.ts implements the source that semantic-source.ts picks, alone where Vectorize is not bound.

/**
 * Where hybrid search gets its semantic ranking: word vectors and the concept lexicon shipped in code
 * (offline-source.ts), with Workers AI embeddings from Vectorize added where both are bound (deployed;
 * semantic-source.ts). Either list is fused with the lexical ranking the same way (fusion.ts).
 */
export interface SemanticSource {
  /**
   * Also the `x-semantic-source` response header of a hybrid search: `vectorize` when Workers AI's neighbours
   * joined the offline source's hits, `offline` when the offline source answered alone (Vectorize not bound, or
   * Workers AI or Vectorize failed this request).
   */
  kind: 'vectorize' | 'offline';
  hits(runner: SqlRunner, text: string): Promise<SemanticHit[]>;
  /**
   * A source that only reads SQL: its statements for `text`, to run in a batch the caller is sending anyway
   * (agent-search.ts runs them beside the vocabulary lookups: one round trip less). `gate` as in
   * AgentSearchInput: false, the statements read nothing.
   */
  plan?(text: string, gate?: (params: SqlParams) => string): SemanticPlan;
  /** The Vectorize backend, whose index the request then brings up to date. */
  backend?: SemanticBackend;
}

/** A SQL-only source's statements for one text, and its hits from their rows (in order). */
export interface SemanticPlan {
  statements: SqlStatement[];
  hits(rows: readonly unknown[][]): SemanticHit[];
}

/** A source from its plan: the statements in one batch. */
export function plannedSource(plan: (text: string) => SemanticPlan): SemanticSource {
  return {
    kind: 'offline',
    plan,
    async hits(runner, text) {
      const planned = plan(text);
      return planned.hits(planned.statements.length ? await runner.batch(planned.statements) : []);
    },
  };
}
