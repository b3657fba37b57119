import { z } from 'zod';

/** Wire contract of `POST {llm_base_url}/embeddings`, OpenAI's shape (docs/openai-compatibility.md). */

/** OpenAI's caps: at most 2048 inputs a request, each at most 8192 tokens (the body is capped as chat's is). */
const EMBEDDING_MAX_INPUTS = 2048;
export const EMBEDDING_MAX_INPUT_TOKENS = 8192;
const MAX_INPUT_CHARS = 100_000;

const TokenIds = z.array(z.int().min(0)).min(1).max(EMBEDDING_MAX_INPUT_TOKENS);

export const EmbeddingRequest = z
  .object({
    model: z.string().min(1),
    /** A text, texts, or token ids (o200k) of one text or several; never empty. */
    input: z.union([
      z.string().min(1).max(MAX_INPUT_CHARS),
      z.array(z.string().min(1).max(MAX_INPUT_CHARS)).min(1).max(EMBEDDING_MAX_INPUTS),
      TokenIds,
      z.array(TokenIds).min(1).max(EMBEDDING_MAX_INPUTS),
    ]),
    dimensions: z.int().min(1).nullish(),
    encoding_format: z.enum(['float', 'base64']).nullish(),
    user: z.string().max(256).nullish(),
  })
  .strict();
export type EmbeddingRequest = z.infer<typeof EmbeddingRequest>;

/** What the chat Worker asks the registry's WordVectors entrypoint to embed: the texts of one request, as decoded. */
export const WordVectorTexts = z.array(z.string().max(MAX_INPUT_CHARS)).max(EMBEDDING_MAX_INPUTS);

export const EmbeddingList = z.object({
  object: z.literal('list'),
  data: z.array(
    z.object({
      object: z.literal('embedding'),
      index: z.int(),
      /** Floats, or with `encoding_format: "base64"` their little-endian float32 bytes in base64. */
      embedding: z.union([z.array(z.number()), z.string()]),
    }),
  ),
  model: z.string(),
  usage: z.object({ prompt_tokens: z.int(), total_tokens: z.int() }),
});
export type EmbeddingList = z.infer<typeof EmbeddingList>;
