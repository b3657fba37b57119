import { BUCKET_CENTROIDS } from './buckets.generated.ts';
import { addText, emptyVector, normalize, type TextVector } from './word-vectors.ts';

/**
 * The word-vector half's index (0014_search_semantic_index.sql): an agent's embedding is computed when the
 * agent is written, quantised to int8 and filed in the bucket of its nearest fixed centroid (an inverted-file
 * coarse quantiser, scripts/vector-buckets.ts). A search then reads the buckets nearest its request, not the
 * agents that share its words.
 */

/** Weight of each field in an agent's vector: what it does (description, use cases, tags) over how it is named. */
const FIELD_WEIGHTS = { name: 1, tags: 2, description: 3, use_cases: 2, functions: 0.5, readme: 2 } as const;

export type AgentText = Record<keyof typeof FIELD_WEIGHTS, string | null>;

/** README characters read (its start says what the agent does): bounds the work per agent whatever a README holds. */
const README_CHARS = 4000;

/**
 * Markdown images and links' targets, HTML tags and URLs: the same in every README (badges, `<use_case>`),
 * they would pull every agent's vector the same way. Repeats are bounded (200 characters tried from any
 * position), so a hostile README costs at most README_CHARS × 200 steps.
 */
const MARKUP = /!\[[^\]]{0,200}\]\([^)]{0,200}\)|\]\([^)]{0,200}\)|<[^<>]{0,200}>|https?:\/\/\S{1,200}/g;

export function agentEmbedding(text: AgentText): TextVector {
  const vector = emptyVector();
  for (const [field, weight] of Object.entries(FIELD_WEIGHTS) as [keyof AgentText, number][]) {
    addText(vector, field === 'readme' ? (text.readme ?? '').slice(0, README_CHARS).replace(MARKUP, ' ') : (text[field] ?? ''), weight);
  }
  return normalize(vector);
}

/** The centroids, unit vectors one after another (count × dims): one array, decoded in one pass a centroid. */
let centroids: Float32Array | null = null;

function bucketCentroids(): Float32Array {
  if (centroids) return centroids;
  const binary = atob(BUCKET_CENTROIDS.codes);
  const { count, dims } = BUCKET_CENTROIDS;
  const flat = new Float32Array(count * dims);
  // Plain loops, the norm summed while decoding: this runs once per isolate, before the JIT has warmed up.
  for (let start = 0; start < flat.length; start += dims) {
    let norm = 0;
    for (let i = start; i < start + dims; i++) {
      const code = (binary.charCodeAt(i) << 24) >> 24;
      flat[i] = code;
      norm += code * code;
    }
    norm = Math.sqrt(norm);
    if (norm > 0) for (let i = start; i < start + dims; i++) flat[i]! /= norm;
  }
  centroids = flat;
  return flat;
}

/** The bucket's centroid · a vector. */
function centroidDot(all: Float32Array, bucket: number, vector: Float32Array): number {
  const start = bucket * vector.length;
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += all[start + i]! * vector[i]!;
  return sum;
}

/** Buckets by their centroid's closeness to a unit vector, closest first. */
export function nearestBuckets(vector: TextVector): number[] {
  const all = bucketCentroids();
  const buckets: number[] = [];
  const scores = new Float64Array(BUCKET_CENTROIDS.count);
  for (let bucket = 0; bucket < scores.length; bucket++) {
    scores[bucket] = centroidDot(all, bucket, vector);
    buckets.push(bucket);
  }
  return buckets.sort((a, b) => scores[b]! - scores[a]! || a - b);
}

export interface VectorRow {
  bucket: number;
  /** Cosine to the bucket's centroid. */
  centrality: number;
  scale: number;
  /** int8 components, base64. */
  code: string;
}

/** An agent's stored row, or null for a text with no word the table knows (the zero vector is close to nothing). */
export function vectorRow(vector: TextVector): VectorRow | null {
  let max = 0;
  for (const x of vector) max = Math.max(max, Math.abs(x));
  if (max === 0) return null;
  const scale = max / 127;
  const code = Int8Array.from(vector, (x) => Math.round(x / scale));
  const bucket = nearestBuckets(vector)[0]!;
  let binary = '';
  for (const byte of new Uint8Array(code.buffer)) binary += String.fromCharCode(byte);
  return { bucket, centrality: centroidDot(bucketCentroids(), bucket, vector), scale, code: btoa(binary) };
}

/** The stored vector's cosine with a unit query vector. */
export function storedCosine(row: Pick<VectorRow, 'scale' | 'code'>, query: TextVector): number {
  const binary = atob(row.code);
  let sum = 0;
  for (let i = 0; i < query.length; i++) sum += ((binary.charCodeAt(i) << 24) >> 24) * query[i]!;
  return sum * row.scale;
}
