import { d1Runner, type SqlRunner } from '../search/sql-runner.ts';
import { newestBookmark } from './bookmarks.ts';
import { shardOf } from './shard-key.ts';

/** What an agent read needs of a database: the primary, or a Sessions API session on a replica. */
export type AgentReader = Pick<D1Database, 'prepare' | 'batch'>;

/** What an agent write needs of a database: a Sessions API session that starts on the primary. */
export type AgentWriter = Pick<D1Database, 'prepare' | 'batch'>;

/**
 * The agent shards of a registry (docs/scale.md): D1 databases, each holding the agents whose address hashes
 * to it with their search index, clicks and interactions. The first is the home database, which also holds
 * accounts, keys, identities, handle claims, challenges, search sessions and one-time tokens.
 *
 * One shard set serves one request, through D1's Sessions API (docs/decisions/0205): per shard, reads that may
 * see a slightly older copy (search, almanac lookups, detail) share one session, started from the client's
 * bookmark for that shard when it sent one (so it reads its own writes), else on any replica; writes, and the
 * reads a write decides on, share another that starts on the primary. `bookmarks()` is what the response
 * carries back: per shard, the newest bookmark either session reached.
 */
export interface ShardSet {
  /** The home database (the `DB` binding), straight to the primary: keys and identities are read here. */
  home: D1Database;
  /** Every shard, home first, straight to the primary: the cron's claims and housekeeping. */
  all: readonly D1Database[];
  /** Which shard owns an address, by index. */
  ownerIndex(address: string): number;
  /** The owning shard's primary session: registration and interactions write through it. */
  owner(address: string): AgentWriter;
  /** The owning shard read on its replica session: almanac lookups and detail. */
  ownerReader(address: string): AgentReader;
  /** Home's primary session: handle claims. */
  homeWriter(): AgentWriter;
  /** Home read on its replica session: a handle's claim. */
  homeReader(): AgentReader;
  /** Every shard on its replica session, home first: reads that ask every shard (the own-agents list). */
  sessions(): AgentReader[];
  /** One read runner per shard, each on its replica session: search fans out over them. */
  readers(): SqlRunner[];
  /** Per shard, the newest bookmark this request's sessions reached, else the one it came with. */
  bookmarks(): (string | null)[];
}

export function shardSet(databases: readonly D1Database[], incoming: readonly (string | null)[] = []): ShardSet {
  if (databases.length === 0) throw new Error('a shard set needs at least one database');
  const reads: (D1DatabaseSession | undefined)[] = [];
  const writes: (D1DatabaseSession | undefined)[] = [];
  const reader = (i: number) => (reads[i] ??= databases[i]!.withSession(incoming[i] ?? 'first-unconstrained'));
  const writer = (i: number) => (writes[i] ??= databases[i]!.withSession('first-primary'));
  const ownerIndex = (address: string) => shardOf(address, databases.length);
  const sessions = () => databases.map((_, i) => reader(i));
  return {
    home: databases[0]!,
    all: databases,
    ownerIndex,
    owner: (address) => writer(ownerIndex(address)),
    ownerReader: (address) => reader(ownerIndex(address)),
    homeWriter: () => writer(0),
    homeReader: () => reader(0),
    sessions,
    readers: () => sessions().map(d1Runner),
    bookmarks: () =>
      databases.map((_, i) => newestBookmark([reads[i]?.getBookmark() ?? null, writes[i]?.getBookmark() ?? null, incoming[i] ?? null])),
  };
}
