/**
 * Which shard owns an agent (docs/scale.md, docs/decisions/0162): FNV-1a (32 bits) of its address, modulo the
 * shard count. Addresses are bech32 of a public key, so they spread evenly; the same address always lands on
 * the same shard for a given count. Changing the count moves agents: a resharding copies them first.
 */
export function shardOf(address: string, shardCount: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < address.length; i++) {
    hash ^= address.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % shardCount;
}
