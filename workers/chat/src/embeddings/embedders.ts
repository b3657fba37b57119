import { addWords, normalize, textWords, wordTable } from '../../../../lib/word-vectors/table.ts';
import type { EmbeddingModel } from '../config/embedding-models.ts';
import { fromWorkersAiError, providerError } from '../providers/errors.ts';
import type { AiRunner } from '../providers/workers-ai.ts';

/** Turns texts into vectors of the model's own length, in order. */
export type Embedder = (texts: string[], signal: AbortSignal) => Promise<number[][]>;

/**
 * The offline embedding: the sum of a text's words' vectors from the shipped table, each weighted by how rare
 * the word is, as a unit vector (lib/word-vectors; the registry's semantic search uses the same vectors). A text
 * with no word the table knows is the zero vector.
 */
function offlineEmbedder(): Embedder {
  return async (texts) => {
    const { dims } = wordTable();
    return texts.map((text) => Array.from(normalize(addWords(new Float32Array(dims), textWords(text)))));
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
export function embedderFor(model: EmbeddingModel, env: ChatEnv): Embedder | null {
  if (model.provider === 'offline') return offlineEmbedder();
  return env.AI ? workersAiEmbedder(model, env.AI) : null;
}
