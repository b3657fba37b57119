import { shardOf } from '../shards/shard-key.ts';

/**
 * AgentRank: PageRank over the graph of counted interactions (signed envelopes and attestations, store.ts),
 * keeping only edges between agents of DIFFERENT accounts, so one owner's agents messaging each other inflate
 * nothing. Recomputed by the cron (liveness/scheduled.ts) over the interactions still counted (the last 30 days),
 * and stored per agent beside `cross_account_interactions`, the count of those edges into it.
 *
 * The stored rank is N × the PageRank an agent receives along edges, over the N agents of the graph: not the
 * share every agent gets by teleport or from agents with no outgoing edge. An agent that only sends, or that no
 * other account's agent talks to, has 0; the mean over the graph is below 1. Search bounds it (ranking.ts).
 */
const DAMPING = 0.85;
const ITERATIONS = 40;
const TOLERANCE = 1e-9;
/** Updates per D1 batch. */
const BATCH = 100;

interface Edge {
  source: string;
  target: string;
  /** Interactions counted from source to target (each pair at most 10 a day, store.ts). */
  count: number;
}

/** Weighted PageRank; mass of agents with no outgoing edge is spread over all agents, as usual. */
function agentRanks(edges: readonly Edge[]): Map<string, number> {
  const nodes = [...new Set(edges.flatMap((edge) => [edge.source, edge.target]))];
  const n = nodes.length;
  const index = new Map(nodes.map((node, i) => [node, i]));
  const outWeight = new Float64Array(n);
  for (const edge of edges) outWeight[index.get(edge.source)!]! += edge.count;
  // What each agent receives along edges, from a rank vector: the part of PageRank that is evidence.
  const received = (rank: Float64Array) => {
    const along = new Float64Array(n);
    for (const edge of edges) {
      const from = index.get(edge.source)!;
      along[index.get(edge.target)!]! += (DAMPING * rank[from]! * edge.count) / outWeight[from]!;
    }
    return along;
  };
  let rank = new Float64Array(n).fill(1 / n);
  for (let iteration = 0; iteration < ITERATIONS; iteration++) {
    let dangling = 0;
    for (let i = 0; i < n; i++) if (outWeight[i] === 0) dangling += rank[i]!;
    const base = (1 - DAMPING) / n + (DAMPING * dangling) / n;
    const next = received(rank).map((along) => along + base);
    let change = 0;
    for (let i = 0; i < n; i++) change += Math.abs(next[i]! - rank[i]!);
    rank = next;
    if (change < TOLERANCE) break;
  }
  const along = received(rank);
  // Stored rounded: small shifts between runs rewrite no row.
  return new Map(nodes.map((node, i) => [node, Math.round(n * along[i]! * 1000) / 1000]));
}

/** Addresses read per lookup of sources held by other shards (json_each keeps it one bound parameter). */
const LOOKUP = 500;

interface EdgeRow extends Edge {
  source_account: string | null;
  target_account: string;
}

/**
 * The edges between agents of different accounts, and each agent's rank and cross-account count written back.
 * Over sharded agents (`shards` in shard order, docs/scale.md) an interaction is on its target's shard and its
 * source may be on another: such sources' accounts are read there, and the graph is ranked whole.
 */
export async function updateAgentRanks(shards: D1Database | readonly D1Database[]): Promise<{ agents: number; edges: number }> {
  const databases = Array.isArray(shards) ? (shards as readonly D1Database[]) : [shards as D1Database];
  const perShard = await Promise.all(
    databases.map(
      async (db) =>
        (
          await db
            .prepare(
              `SELECT i.source AS source, i.target AS target, count(*) AS count, s.account_id AS source_account, t.account_id AS target_account
               FROM interactions i JOIN agents t ON t.address = i.target LEFT JOIN agents s ON s.address = i.source
               WHERE t.account_id IS NOT NULL
               GROUP BY i.source, i.target`,
            )
            .all<EdgeRow>()
        ).results,
    ),
  );
  const rows = perShard.flat();
  const accounts = await sourceAccounts(
    databases,
    rows.filter((row) => row.source_account === null).map((row) => row.source),
  );
  const edges: Edge[] = rows
    .map((row) => ({ ...row, source_account: row.source_account ?? accounts.get(row.source) ?? null }))
    .filter((row) => row.source_account !== null && row.source_account !== row.target_account)
    .map(({ source, target, count }) => ({ source, target, count }));
  const ranks = agentRanks(edges);
  const received = new Map<string, number>();
  for (const edge of edges) received.set(edge.target, (received.get(edge.target) ?? 0) + edge.count);
  await Promise.all(databases.map((db, i) => writeRanks(db, ranks, received, (address) => shardOf(address, databases.length) === i)));
  return { agents: ranks.size, edges: edges.length };
}

/** The accounts of sources not on their target's shard, read on the shards that own them (none with one shard). */
async function sourceAccounts(databases: readonly D1Database[], sources: readonly string[]): Promise<Map<string, string>> {
  const accounts = new Map<string, string>();
  if (databases.length === 1) return accounts;
  const byShard = new Map<number, string[]>();
  for (const source of new Set(sources)) {
    const shard = shardOf(source, databases.length);
    byShard.set(shard, [...(byShard.get(shard) ?? []), source]);
  }
  for (const [shard, addresses] of byShard)
    for (let i = 0; i < addresses.length; i += LOOKUP) {
      const { results } = await databases[shard]!.prepare(
        'SELECT address, account_id FROM agents WHERE account_id IS NOT NULL AND address IN (SELECT value FROM json_each(?))',
      )
        .bind(JSON.stringify(addresses.slice(i, i + LOOKUP)))
        .all<{ address: string; account_id: string }>();
      for (const row of results) accounts.set(row.address, row.account_id);
    }
  return accounts;
}

/**
 * One shard's agents' ranks and counts. What is stored (agents with no rank and no count are 0 and 0, found
 * through the partial index of 0012): only agents whose values change are written, so a quiet graph costs one read.
 */
async function writeRanks(
  db: D1Database,
  ranks: ReadonlyMap<string, number>,
  received: ReadonlyMap<string, number>,
  owns: (address: string) => boolean,
): Promise<void> {
  const { results: stored } = await db
    .prepare('SELECT address, agent_rank, cross_account_interactions FROM agents WHERE agent_rank != 0 OR cross_account_interactions != 0')
    .all<{ address: string; agent_rank: number; cross_account_interactions: number }>();
  const before = new Map(stored.map((row) => [row.address, row]));
  const update = db.prepare('UPDATE agents SET agent_rank = ?2, cross_account_interactions = ?3 WHERE address = ?1');
  const statements = [];
  for (const address of new Set([...[...ranks.keys()].filter(owns), ...before.keys()])) {
    const rank = ranks.get(address) ?? 0;
    const count = received.get(address) ?? 0;
    const was = before.get(address);
    if ((was?.agent_rank ?? 0) !== rank || (was?.cross_account_interactions ?? 0) !== count)
      statements.push(update.bind(address, rank, count));
  }
  for (let i = 0; i < statements.length; i += BATCH) await db.batch(statements.slice(i, i + BATCH));
}
