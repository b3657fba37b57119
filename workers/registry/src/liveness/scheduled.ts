import { agentShards } from '../shards/agent-shards.ts';
import { updateAgentRanks } from '../interactions/agent-rank.ts';
import { sweep } from '../interactions/store.ts';
import { semanticBackend, syncEmbeddings } from '../search/semantic.ts';
import { indexPendingAgents } from '../search/semantic-index.ts';
import { d1Runner } from '../search/sql-runner.ts';
import { sweepLiveness, type SweepSummary } from './sweep.ts';

/** Agents embedded per cron run: four times a search's background batch, still well inside one invocation. */
const CRON_EMBED_BATCH = 100;

interface ScheduledSummary extends SweepSummary {
  /** Agents (re)embedded for semantic search; 0 where Workers AI and Vectorize are not bound. */
  embedded: number;
  /** Agents in the cross-account interaction graph AgentRank ran over (interactions/agent-rank.ts). */
  ranked: number;
  /** Agents written into the offline semantic index (agents written by paths other than registration). */
  indexed: number;
}

/**
 * The Cron Trigger: the liveness sweep (its first share probed here, the rest queued), then housekeeping (expired nonces and challenges, aging interaction counts),
 * then AgentRank over the interactions still counted, then bring semantic search's vectors up to date, so new and changed agents are found by meaning without
 * waiting for a semantic search to start the sync, and index a batch of agents the offline semantic index lacks.
 */
export async function runScheduled(env: RegistryEnv, now = new Date()): Promise<ScheduledSummary> {
  const summary = await sweepLiveness(env, now);
  const shards = agentShards(env).all;
  // Housekeeping per shard: each holds its agents' interactions and clicks; AgentRank ranks the graph of every shard.
  await Promise.all(shards.map((db) => sweep(db, now)));
  const { agents: ranked } = await updateAgentRanks(shards);
  const semantic = semanticBackend(env);
  const perShard = await Promise.all(
    shards.map(async (db) => ({
      embedded: semantic ? await syncEmbeddings(semantic, d1Runner(db), CRON_EMBED_BATCH) : 0,
      indexed: await indexPendingAgents(d1Runner(db)),
    })),
  );
  const sum = (key: 'embedded' | 'indexed') => perShard.reduce((total, shard) => total + shard[key], 0);
  return { ...summary, ranked, embedded: sum('embedded'), indexed: sum('indexed') };
}
