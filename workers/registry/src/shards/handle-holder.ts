import { handleOwner } from '../agents/store.ts';
import type { AgentReader } from './shard-set.ts';

/**
 * The address holding a handle. A handle lives on its agent's row, so on the agent's shard, and nothing in
 * the handle says which: every shard is asked, in parallel (one query with one shard).
 */
export async function handleHolder(shards: readonly AgentReader[], handle: string): Promise<string | null> {
  const holders = await Promise.all(shards.map((db) => handleOwner(db, handle)));
  return holders.find((holder) => holder !== null) ?? null;
}
