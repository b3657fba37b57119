/**
 * The registry's `WordVectors` entrypoint: the offline text embedding from the shipped word table, served by
 * the Worker that already carries the table for its search, so no other Worker bundles a second copy
 * (docs/decisions/0170).
 */
export interface WordVectorsContract extends Rpc.WorkerEntrypointBranded {
  /**
   * Each text as the rarity-weighted sum of its words' vectors, a unit vector (the zero vector when the table
   * knows none of its words), in order. Refuses anything but at most 2,048 texts of bounded length.
   */
  embed(texts: string[]): Promise<number[][]>;
}
