import { d1Runner, type SqlRunner } from '../search/sql-runner.ts';
import { shardOf } from './shard-key.ts';

/**
 * The agent shards of a registry (docs/scale.md): D1 databases, each holding the agents whose address hashes
 * to it with their search index, clicks and interactions. Reads go through D1's Sessions API: a session that
 * starts on any replica ('first-unconstrained'), as search, almanac lookups and detail can read a
 * replica's slightly older copy; writes keep the primary.
 */
export interface ShardSet {
  /** The shard that owns an address: almanac lookups, detail, registration and interactions go straight to it. */
  owner(address: string): D1Database;
  /** One read runner per shard, each on its own replica session: search fans out over them. */
  readers(): SqlRunner[];
}

export function shardSet(databases: readonly D1Database[]): ShardSet {
  if (databases.length === 0) throw new Error('a shard set needs at least one database');
  return {
    owner: (address) => databases[shardOf(address, databases.length)]!,
    readers: () => databases.map((db) => d1Runner(db.withSession('first-unconstrained'))),
  };
}
