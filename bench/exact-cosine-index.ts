/**
 * Vectorize with the cosine metric, answered exactly: a brute-force scan of a few hundred vectors. The bench's
 * stand-in for the deployed index (sentence-encoder-bindings.ts, workers-ai-rest-bindings.ts): exact where
 * Vectorize approximates, so what it measures is no worse than Vectorize would give.
 */

/** Vectorize's limit on topK when neither values nor metadata are returned. */
const VECTORIZE_MAX_TOP_K = 100;

interface Match {
  id: string;
  score: number;
}

function unit(vector: readonly number[]): Float64Array {
  const norm = Math.hypot(...vector) || 1;
  return Float64Array.from(vector, (value) => value / norm);
}

export class ExactCosineIndex {
  private readonly vectors = new Map<string, Float64Array>();

  async query(vector: number[], { topK }: { topK: number }): Promise<{ matches: Match[]; count: number }> {
    if (!Number.isInteger(topK) || topK < 1 || topK > VECTORIZE_MAX_TOP_K) throw new Error(`Vectorize refuses topK ${topK}`);
    const query = unit(vector);
    const matches: Match[] = [];
    for (const [id, values] of this.vectors) {
      if (values.length !== query.length) throw new Error(`vector of ${query.length} dimensions against an index of ${values.length}`);
      let dot = 0;
      for (let d = 0; d < values.length; d++) dot += values[d]! * query[d]!;
      matches.push({ id, score: dot });
    }
    matches.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
    const top = matches.slice(0, topK);
    return { matches: top, count: top.length };
  }

  async upsert(vectors: { id: string; values: number[] }[]): Promise<{ ids: string[] }> {
    for (const { id, values } of vectors) this.vectors.set(id, unit(values));
    return { ids: vectors.map((vector) => vector.id) };
  }

  async deleteByIds(ids: string[]): Promise<{ ids: string[] }> {
    for (const id of ids) this.vectors.delete(id);
    return { ids };
  }
}
