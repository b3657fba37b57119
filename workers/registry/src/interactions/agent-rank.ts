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

/** The edges between agents of different accounts, and each agent's rank and cross-account count written back. */
export async function updateAgentRanks(db: D1Database): Promise<{ agents: number; edges: number }> {
  const { results: edges } = await db
    .prepare(
      `SELECT i.source AS source, i.target AS target, count(*) AS count
       FROM interactions i JOIN agents s ON s.address = i.source JOIN agents t ON t.address = i.target
       WHERE s.account_id IS NOT NULL AND t.account_id IS NOT NULL AND s.account_id != t.account_id
       GROUP BY i.source, i.target`,
    )
    .all<Edge>();
  const ranks = agentRanks(edges);
  const received = new Map<string, number>();
  for (const edge of edges) received.set(edge.target, (received.get(edge.target) ?? 0) + edge.count);

  // What is stored (agents with no rank and no count are 0 and 0, found through the partial index of 0012):
  // only agents whose values change are written, so a quiet graph costs one read.
  const { results: stored } = await db
    .prepare('SELECT address, agent_rank, cross_account_interactions FROM agents WHERE agent_rank != 0 OR cross_account_interactions != 0')
    .all<{ address: string; agent_rank: number; cross_account_interactions: number }>();
  const before = new Map(stored.map((row) => [row.address, row]));
  const update = db.prepare('UPDATE agents SET agent_rank = ?2, cross_account_interactions = ?3 WHERE address = ?1');
  const statements = [];
  for (const address of new Set([...ranks.keys(), ...before.keys()])) {
    const rank = ranks.get(address) ?? 0;
    const count = received.get(address) ?? 0;
    const was = before.get(address);
    if ((was?.agent_rank ?? 0) !== rank || (was?.cross_account_interactions ?? 0) !== count)
      statements.push(update.bind(address, rank, count));
  }
  for (let i = 0; i < statements.length; i += BATCH) await db.batch(statements.slice(i, i + BATCH));
  return { agents: ranks.size, edges: edges.length };
}
