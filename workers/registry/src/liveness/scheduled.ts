import { sweep } from '../interactions/store.ts';
import { DEFAULT_PROBE, probeAgents, type ProbeSummary } from './probe.ts';

/** The Cron Trigger: probe webhooks, then housekeeping (expired nonces and challenges, aging interaction counts). */
export async function runScheduled(env: RegistryEnv, now = new Date()): Promise<ProbeSummary> {
  const summary = await probeAgents(env.DB, { ...DEFAULT_PROBE, allowPrivate: env.ALLOW_PRIVATE_URLS === 'true' }, now);
  await sweep(env.DB, now);
  return summary;
}
