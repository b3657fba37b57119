import { conceptSource } from './concepts/concept-source.ts';
import { semanticBackend, semanticHits, type SemanticBindings } from './semantic.ts';
import type { SemanticSource } from './semantic-source-types.ts';

export function semanticSource(env: SemanticBindings): SemanticSource {
  const backend = semanticBackend(env);
  if (!backend) return conceptSource;
  return { kind: 'vectorize', backend, hits: (runner, text) => semanticHits(backend, runner, text) };
}
