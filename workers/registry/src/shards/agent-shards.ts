import { shardSet, type ShardSet } from './shard-set.ts';

/**
 * The registry's agent shards from its bindings (docs/scale.md, docs/decisions/0190): shard 0 is `DB`, the
 * home database; `AGENT_SHARDS` names the D1 bindings of shards 1…N-1, comma-separated, in shard order.
 * Empty (the default): one shard, `DB`, as a registry without sharding has always been. `bookmarks`: the
 * client's, by shard (bookmarks.ts); a request's shard set is made once (request-shards.ts).
 */
export function agentShards(env: { DB: D1Database; AGENT_SHARDS?: string }, bookmarks: readonly (string | null)[] = []): ShardSet {
  const names = (env.AGENT_SHARDS ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const bindings = env as unknown as Record<string, unknown>;
  const extra = names.map((name) => {
    const db = bindings[name];
    // A deploy whose var names a binding it does not have: every agent route would read the wrong shard.
    if (!isD1(db)) throw new Error(`AGENT_SHARDS names ${name}, which is not a D1 binding of this Worker`);
    return db;
  });
  return shardSet([env.DB, ...extra], bookmarks);
}

function isD1(value: unknown): value is D1Database {
  return typeof value === 'object' && value !== null && typeof (value as D1Database).prepare === 'function';
}
