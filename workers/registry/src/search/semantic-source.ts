import { offlineSource } from './offline-source.ts';
import { semanticBackend, semanticHits, type SemanticBindings } from './semantic.ts';
import type { SemanticSource } from './semantic-source-types.ts';

export function semanticSource(env: SemanticBindings): SemanticSource {
  const backend = semanticBackend(env);
  if (!backend) return offlineSource;
  return { kind: 'vectorize', backend, hits: (runner, text) => semanticHits(backend, runner, text) };
}
