import { sample } from './sample.ts';
import { TEACHER_DIMS } from './teacher-targets.ts';

/**
 * tokenlearn (MinishLab's second step after model2vec's distillation): the word table learns from whole sentences.
 * A sentence's vector at run time is the rarity-weighted sum of its content words' unit vectors; here that sum is
 * trained (cosine loss, Adam, a fixed-seed order) to point where the teacher's embedding of the whole sentence
 * points, so a word takes on what it means in the sentences it occurs in. The teacher's 512-d vectors are mapped
 * into the table's space by the ridge regression that best predicts the untrained table's sentence vectors from
 * them: the table keeps its axes and starts near its targets. A pull towards each word's initial vector keeps
 * words the corpus rarely shows as they were; words it never shows do not move.
 */

export interface TrainingOptions {
  epochs: number;
  learningRate: number;
  /** Strength of the pull towards the initial vectors (gradient regulariser × (vector − initial)). */
  pull: number;
  batch: number;
  /** Ridge constant of the map from the teacher's space into the table's. */
  ridge: number;
}

/** A sentence as the table reads it: its content words' rows and rarity weights. */
export interface TableSentence {
  rows: Int32Array;
  weights: Float32Array;
}

const dotAt = (a: Float32Array, aAt: number, b: Float32Array, bAt: number, dims: number) => {
  let sum = 0;
  for (let i = 0; i < dims; i++) sum += a[aAt + i]! * b[bAt + i]!;
  return sum;
};

/** Σ weight × row vector, into `out`. */
function sentenceVector(table: Float32Array, dims: number, sentence: TableSentence, out: Float32Array): Float32Array {
  out.fill(0);
  sentence.rows.forEach((row, k) => {
    const weight = sentence.weights[k]!;
    for (let i = 0; i < dims; i++) out[i]! += weight * table[row * dims + i]!;
  });
  return out;
}

/** Solves the symmetric positive-definite system A x = B (n × n, n × m, row-major) by Cholesky; returns x (n × m). */
function solve(a: Float64Array, b: Float64Array, n: number, m: number): Float64Array {
  const l = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j <= i; j++) {
      let sum = a[i * n + j]!;
      for (let k = 0; k < j; k++) sum -= l[i * n + k]! * l[j * n + k]!;
      l[i * n + j] = i === j ? Math.sqrt(sum) : sum / l[j * n + j]!;
    }
  const x = Float64Array.from(b);
  for (let c = 0; c < m; c++) {
    for (let i = 0; i < n; i++) {
      let sum = x[i * m + c]!;
      for (let k = 0; k < i; k++) sum -= l[i * n + k]! * x[k * m + c]!;
      x[i * m + c] = sum / l[i * n + i]!;
    }
    for (let i = n - 1; i >= 0; i--) {
      let sum = x[i * m + c]!;
      for (let k = i + 1; k < n; k++) sum -= l[k * n + i]! * x[k * m + c]!;
      x[i * m + c] = sum / l[i * n + i]!;
    }
  }
  return x;
}

/**
 * The teacher's vectors in the table's space, unit length: [teacher, 1] × W, W the ridge regression of the
 * untrained table's unit sentence vectors on the teacher's (with an intercept).
 */
function mappedTargets(table: Float32Array, dims: number, sentences: TableSentence[], teacher: Float32Array, ridge: number): Float32Array {
  const n = TEACHER_DIMS + 1;
  const gram = new Float64Array(n * n);
  const cross = new Float64Array(n * dims);
  const student = new Float32Array(dims);
  const x = new Float64Array(n);
  sentences.forEach((sentence, s) => {
    sentenceVector(table, dims, sentence, student);
    const norm = Math.hypot(...student) || 1;
    for (let i = 0; i < TEACHER_DIMS; i++) x[i] = teacher[s * TEACHER_DIMS + i]!;
    x[TEACHER_DIMS] = 1;
    for (let i = 0; i < n; i++) {
      const xi = x[i]!;
      if (xi === 0) continue;
      for (let j = i; j < n; j++) gram[i * n + j]! += xi * x[j]!;
      for (let d = 0; d < dims; d++) cross[i * dims + d]! += (xi * student[d]!) / norm;
    }
  });
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < i; j++) gram[i * n + j] = gram[j * n + i]!;
    if (i < TEACHER_DIMS) gram[i * n + i]! += ridge * sentences.length;
  }
  const map = solve(gram, cross, n, dims);
  const targets = new Float32Array(sentences.length * dims);
  for (let s = 0; s < sentences.length; s++) {
    for (let d = 0; d < dims; d++) {
      let sum = map[TEACHER_DIMS * dims + d]!;
      for (let i = 0; i < TEACHER_DIMS; i++) sum += teacher[s * TEACHER_DIMS + i]! * map[i * dims + d]!;
      targets[s * dims + d] = sum;
    }
    const norm = Math.sqrt(dotAt(targets, s * dims, targets, s * dims, dims)) || 1;
    for (let d = 0; d < dims; d++) targets[s * dims + d]! /= norm;
  }
  return targets;
}

/** Mean cosine between the sentences' table vectors and their targets. */
export function meanCosine(table: Float32Array, dims: number, sentences: TableSentence[], targets: Float32Array): number {
  const student = new Float32Array(dims);
  let sum = 0;
  sentences.forEach((sentence, s) => {
    sentenceVector(table, dims, sentence, student);
    sum += dotAt(student, 0, targets, s * dims, dims) / (Math.hypot(...student) || 1);
  });
  return sum / sentences.length;
}

function scaleRowsToUnit(table: Float32Array, dims: number, rows: Iterable<number>) {
  for (const row of rows) {
    const norm = Math.sqrt(dotAt(table, row * dims, table, row * dims, dims)) || 1;
    for (let i = 0; i < dims; i++) table[row * dims + i]! /= norm;
  }
}

/**
 * The trained table (words × dims, each row a unit vector), from unit `initial` rows. Sentences with no word the
 * table knows are left out by the caller. `log` hears the held-back sentences' mean cosine after each epoch.
 */
export function trainTable(
  initial: Float32Array,
  dims: number,
  sentences: TableSentence[],
  teacher: Float32Array,
  options: TrainingOptions,
  log: (line: string) => void = () => {},
): Float32Array {
  const table = Float32Array.from(initial);
  const targets = mappedTargets(table, dims, sentences, teacher, options.ridge);
  const order = sample(
    sentences.map((_, s) => s),
    sentences.length,
  );
  const heldBack = order.slice(0, Math.min(2000, Math.floor(order.length / 20)));
  const trained = order.slice(heldBack.length);
  const heldSentences = heldBack.map((s) => sentences[s]!);
  const heldTargets = Float32Array.from(heldBack.flatMap((s) => [...targets.subarray(s * dims, (s + 1) * dims)]));
  log(
    `tokenlearn: ${trained.length} sentences, held back ${heldBack.length}: cosine ${meanCosine(table, dims, heldSentences, heldTargets).toFixed(4)} before`,
  );

  const m = new Float32Array(table.length);
  const v = new Float32Array(table.length);
  const grad = new Float32Array(table.length);
  const student = new Float32Array(dims);
  const sentenceGrad = new Float32Array(dims);
  const [beta1, beta2, epsilon] = [0.9, 0.999, 1e-8];
  let step = 0;
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    const epochOrder = sample(trained, trained.length, 25 + epoch);
    for (let at = 0; at < epochOrder.length; at += options.batch) {
      const touched = new Set<number>();
      for (const s of epochOrder.slice(at, at + options.batch)) {
        const sentence = sentences[s]!;
        sentenceVector(table, dims, sentence, student);
        const norm = Math.hypot(...student) || 1;
        const cos = dotAt(student, 0, targets, s * dims, dims) / norm;
        // d(1 − cos)/d(student) = −(target − cos × unit student) / |student|
        for (let i = 0; i < dims; i++) sentenceGrad[i] = -(targets[s * dims + i]! - (cos * student[i]!) / norm) / norm / options.batch;
        sentence.rows.forEach((row, k) => {
          touched.add(row);
          const weight = sentence.weights[k]!;
          for (let i = 0; i < dims; i++) grad[row * dims + i]! += weight * sentenceGrad[i]!;
        });
      }
      step++;
      const lr = (options.learningRate * Math.sqrt(1 - beta2 ** step)) / (1 - beta1 ** step);
      for (const row of touched)
        for (let i = row * dims; i < (row + 1) * dims; i++) {
          const g = grad[i]! + options.pull * (table[i]! - initial[i]!);
          m[i] = beta1 * m[i]! + (1 - beta1) * g;
          v[i] = beta2 * v[i]! + (1 - beta2) * g * g;
          table[i]! -= (lr * m[i]!) / (Math.sqrt(v[i]!) + epsilon);
          grad[i] = 0;
        }
      // The run time reads each word as a unit vector (its rarity weight apart): keep the trained rows on the sphere.
      scaleRowsToUnit(table, dims, touched);
    }
    log(`tokenlearn: epoch ${epoch + 1}: held-back cosine ${meanCosine(table, dims, heldSentences, heldTargets).toFixed(4)}`);
  }
  return table;
}
