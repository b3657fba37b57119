import type { WordVectorsContract } from '../../../../lib/rpc-contracts/index.ts';
import type { EmbeddingModel } from '../config/embedding-models.ts';
import type { ChatBindings } from '../env.ts';
import { fromWorkersAiError, providerError } from '../providers/errors.ts';
import type { AiRunner } from '../providers/workers-ai.ts';

/** Turns texts into vectors of the model's own length, in order. */
export type Embedder = (texts: string[], signal: AbortSignal) => Promise<number[][]>;

/**
 * The offline embedding: the sum of a text's words' vectors from the shipped table, each weighted by how rare
 * the word is, as a unit vector, computed by the registry, which carries the table for its semantic search
 * (docs/decisions/0170). A text with no word the table knows is the zero vector.
 */
function offlineEmbedder(wordVectors: Service<WordVectorsContract>): Embedder {
  return async (texts) => {
    try {
      return await wordVectors.embed(texts);
    } catch (error) {
      console.error('chat: the registry did not answer the offline embedding', error);
      throw providerError(503, 'the offline embedding service is unreachable; try again shortly', 'upstream_unavailable', 5);
    }
  };
}

/** Workers AI's text embedding models answer `{shape, data}` for `{text: string[]}`. */
export function workersAiEmbedder(model: EmbeddingModel, ai: AiRunner): Embedder {
  return async (texts, signal) => {
    let result: unknown;
    try {
      result = await ai.run(model.model, { text: texts }, { signal });
    } catch (error) {
      if (signal.aborted) throw error;
      throw fromWorkersAiError(error);
    }
    const data = (result as { data?: unknown }).data;
    const valid =
      Array.isArray(data) && data.length === texts.length && data.every((row) => Array.isArray(row) && row.length === model.dimensions);
    if (!valid) {
      console.error(`chat: Workers AI's ${model.model} answered embeddings of an unexpected shape`);
      throw providerError(503, 'Workers AI answered embeddings of an unexpected shape', 'upstream_bad_response', 1);
    }
    return data as number[][];
  };
}

/** Whether this deployment can serve `model` (Workers AI needs its binding). */
export function embedderFor(model: EmbeddingModel, env: ChatBindings): Embedder | null {
  if (model.provider === 'offline') return offlineEmbedder(env.WORD_VECTORS);
  return env.AI ? workersAiEmbedder(model, env.AI) : null;
}
