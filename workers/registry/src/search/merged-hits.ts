import type { SemanticHit } from './semantic.ts';

/** Hits handed to fusion, as many as Vectorize is asked for. */
const MERGED_TOP_K = 50;

/** Two semantic lists as one: an agent in both counts with the sum of its strengths, the best first. */
export function mergedHits(first: readonly SemanticHit[], second: readonly SemanticHit[]): SemanticHit[] {
  const byAddress = new Map(first.map((hit) => [hit.address, { ...hit }]));
  for (const hit of second) {
    const known = byAddress.get(hit.address);
    if (known) {
      known.strength += hit.strength;
      known.similarity = Math.max(known.similarity, hit.similarity);
    } else byAddress.set(hit.address, { ...hit });
  }
  return [...byAddress.values()].sort((a, b) => b.strength - a.strength || (a.address < b.address ? -1 : 1)).slice(0, MERGED_TOP_K);
}
