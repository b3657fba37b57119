import { findAgent } from '../agents/store.ts';
import { countInteraction, type InteractionCount } from '../interactions/store.ts';
import type { ShardSet } from './shard-set.ts';

/**
 * An interaction is counted on its target's shard. Whether its source is a registered agent is read on the
 * source's shard when that is another one; on the same shard the count's own conditional insert reads it.
 */
export async function countOnOwner(
  shards: ShardSet,
  target: string,
  source: string,
  sessionId: string | null,
  kind: 'attested' | 'proxy',
): Promise<InteractionCount> {
  const db = shards.owner(target);
  const sourceShard = shards.owner(source);
  const sourceRegistered = sourceShard === db ? null : Boolean((await findAgent(sourceShard, source))?.account_id);
  return countInteraction(db, target, source, sessionId, kind, sourceRegistered);
}
