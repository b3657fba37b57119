import { WorkerEntrypoint } from 'cloudflare:workers';
import { addWords, normalize, textWords, wordTable } from '../../../../lib/word-vectors/table.ts';
import type { WordVectorsContract } from '../../../../lib/rpc-contracts/index.ts';
import { WordVectorTexts } from '../../../../schemas/embeddings.ts';

/**
 * The offline embedding for the chat Worker's `/v1/embeddings` over a service binding: the word table lives in
 * this Worker for search already, and a second copy would push the chat bundle past the Free plan's size.
 * All words count, rare ones more (no search stopwords: an embedding is of the whole text).
 */
export class WordVectors extends WorkerEntrypoint<RegistryEnv> implements WordVectorsContract {
  async embed(texts: string[]): Promise<number[][]> {
    const parsed = WordVectorTexts.safeParse(texts);
    if (!parsed.success) throw new TypeError('embed takes at most 2,048 texts of at most 100,000 characters');
    const { dims } = wordTable();
    return parsed.data.map((text) => Array.from(normalize(addWords(new Float32Array(dims), textWords(text)))));
  }
}
