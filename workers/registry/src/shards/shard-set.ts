import { d1Runner, type SqlRunner } from '../search/sql-runner.ts';
import { shardOf } from './shard-key.ts';

/** What an agent read needs of a database: the primary, or a Sessions API session on a replica. */
export type AgentReader = Pick<D1Database, 'prepare' | 'batch'>;

/**
 * The agent shards of a registry (docs/scale.md): D1 databases, each holding the agents whose address hashes
 * to it with their search index, clicks and interactions. The first is the home database, which also holds
 * accounts, keys, identities, challenges, search sessions and one-time tokens. Reads that may see a slightly
 * older copy (search, almanac lookups, detail) go through D1's Sessions API, a session that starts on any
 * replica ('first-unconstrained'); writes, and the reads a write decides on, keep the primary.
 */
export interface ShardSet {
  /** The home database (the `DB` binding): per-account data, and shard 0. */
  home: D1Database;
  /** Every shard, home first. */
  all: readonly D1Database[];
  /** The shard that owns an address: registration and interactions go straight to it. */
  owner(address: string): D1Database;
  /** The owning shard read on a replica session: almanac lookups and detail. */
  ownerReader(address: string): AgentReader;
  /** The home database read on a replica session: a handle's claim. */
  homeReader(): AgentReader;
  /** Every shard on its own replica session, home first: reads that ask every shard (the own-agents list). */
  sessions(): AgentReader[];
  /** One read runner per shard, each on its own replica session: search fans out over them. */
  readers(): SqlRunner[];
}

export function shardSet(databases: readonly D1Database[]): ShardSet {
  if (databases.length === 0) throw new Error('a shard set needs at least one database');
  const owner = (address: string) => databases[shardOf(address, databases.length)]!;
  const sessions = () => databases.map((db) => db.withSession('first-unconstrained'));
  return {
    home: databases[0]!,
    all: databases,
    owner,
    ownerReader: (address) => owner(address).withSession('first-unconstrained'),
    homeReader: () => databases[0]!.withSession('first-unconstrained'),
    sessions,
    readers: () => sessions().map(d1Runner),
  };
}
