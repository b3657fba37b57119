/** Cuts a vector to its first `dimensions` and makes it a unit vector again (how shortenable models are shortened). */
export function shorten(vector: number[], dimensions: number): number[] {
  const cut = vector.slice(0, dimensions);
  const norm = Math.sqrt(cut.reduce((sum, x) => sum + x * x, 0));
  return norm > 0 ? cut.map((x) => x / norm) : cut;
}

/** OpenAI's `encoding_format: "base64"`: the vector's little-endian float32 bytes, in base64. */
export function base64Floats(vector: number[]): string {
  const bytes = new Uint8Array(new Float32Array(vector).buffer);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
