import { mergedHits } from './merged-hits.ts';
import { offlineSource } from './offline-source.ts';
import { semanticBackend, semanticHits, type SemanticBindings } from './semantic.ts';
import type { SemanticSource } from './semantic-source-types.ts';

/**
 * Deployed, Workers AI's neighbours add to the offline source's hits (concept lexicon and word vectors) rather than
 * replace them: the offline source knows the everyday cues and was tuned with fusion, the embedding model reads
 * wordings neither lists. An agent found by both counts with the sum; a Vectorize hit with half its strength, the
 * largest share that lost nothing on any development set with a sentence encoder standing in for Workers AI
 * (0.15–1 measured; docs/decisions/0217).
 */
const VECTORIZE_SHARE = 0.5;

/** One per request: `kind` turns to `offline` once Workers AI or Vectorize failed it, for the response header. */
export function semanticSource(env: SemanticBindings): SemanticSource {
  const backend = semanticBackend(env);
  if (!backend) return offlineSource;
  const source: SemanticSource = {
    kind: 'vectorize',
    backend,
    async hits(runner, text) {
      const [offline, vectorize] = await Promise.all([
        offlineSource.hits(runner, text),
        // The offline source needs neither binding: an outage of either costs only Workers AI's share.
        semanticHits(backend, runner, text).catch((error: unknown) => {
          console.error('Workers AI semantic search failed, answering with the offline source', error);
          source.kind = 'offline';
          return [];
        }),
      ]);
      return mergedHits(
        offline,
        vectorize.map((hit) => ({ ...hit, strength: hit.strength * VECTORIZE_SHARE })),
      );
    },
  };
  return source;
}
