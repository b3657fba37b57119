import { sweep } from '../interactions/store.ts';
import { semanticBackend, syncEmbeddings } from '../search/semantic.ts';
import { d1Runner } from '../search/sql-runner.ts';
import { DEFAULT_PROBE, probeAgents, type ProbeSummary } from './probe.ts';

/** Agents embedded per cron run: four times a search's background batch, still well inside one invocation. */
const CRON_EMBED_BATCH = 100;

interface ScheduledSummary extends ProbeSummary {
  /** Agents (re)embedded for semantic search; 0 where Workers AI and Vectorize are not bound. */
  embedded: number;
}

/**
 * The Cron Trigger: probe webhooks, then housekeeping (expired nonces and challenges, aging interaction counts),
 * then bring semantic search's vectors up to date, so new and changed agents are found by meaning without
 * waiting for a semantic search to start the sync.
 */
export async function runScheduled(env: RegistryEnv, now = new Date()): Promise<ScheduledSummary> {
  const summary = await probeAgents(env.DB, { ...DEFAULT_PROBE, allowPrivate: env.ALLOW_PRIVATE_URLS === 'true' }, now);
  await sweep(env.DB, now);
  const semantic = semanticBackend(env);
  const embedded = semantic ? await syncEmbeddings(semantic, d1Runner(env.DB), CRON_EMBED_BATCH) : 0;
  return { ...summary, embedded };
}
