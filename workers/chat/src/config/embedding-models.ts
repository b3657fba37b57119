import { z } from 'zod';

/**
 * One embedding model: the public alias (`embed1`, …) mapped to a provider model, read from the
 * `EMBEDDING_MODEL_MAP` var (JSON) as chat models are from MODEL_MAP.
 */
const EmbeddingEntry = z.object({
  /** `offline`: the shipped word vectors (lib/word-vectors), 100 dimensions, the same the registry searches with. */
  provider: z.enum(['workers-ai', 'offline']),
  /** Workers AI's model id (`@cf/baai/bge-base-en-v1.5`, …). */
  model: z.string().min(1).default('offline-word-vectors-v1'),
  /** The vectors' length as the model makes them. */
  dimensions: z.int().positive().default(100),
  /** The model's vectors keep their meaning when cut short (Matryoshka training): `dimensions` below its own are honoured. */
  shortenable: z.boolean().default(false),
});

export interface EmbeddingModel extends z.infer<typeof EmbeddingEntry> {
  alias: string;
}

/** Parses EMBEDDING_MODEL_MAP; a broken map is a deployment error. */
export function readEmbeddingModels(raw: unknown): Map<string, EmbeddingModel> {
  const value = typeof raw === 'string' ? JSON.parse(raw) : raw;
  const parsed = z.record(z.string().min(1), EmbeddingEntry).parse(value ?? {});
  return new Map(Object.entries(parsed).map(([alias, entry]) => [alias, { alias, ...entry }]));
}
