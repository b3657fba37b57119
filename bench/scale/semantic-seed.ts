import type Database from 'better-sqlite3';
import { indexPendingAgents } from '../../workers/registry/src/search/semantic-index.ts';
import { sqliteRunner } from '../sqlite-runner.ts';
import { progressBar } from './progress.ts';

/** Agents indexed per transaction: the per-call batch of the cron is sized for a Worker, not for a bulk load. */
const BATCH = 2_000;

/**
 * Indexes every agent pending in the semantic index (0014_search_semantic_index.sql) with the registry's own
 * code (semantic-index.ts), as registration does, in batches with a progress bar. Returns how many.
 */
export async function indexSemanticWithProgress(db: Database.Database): Promise<number> {
  const { pending } = db.prepare('SELECT count(*) AS pending FROM search_semantic_pending').get() as { pending: number };
  if (pending === 0) return 0;
  const runner = sqliteRunner(db);
  const progress = progressBar('semantic index', pending);
  let total = 0;
  for (let done = await indexPendingAgents(runner, { limit: BATCH }); done > 0; done = await indexPendingAgents(runner, { limit: BATCH })) {
    total += done;
    progress.tick(total);
  }
  progress.finish();
  return total;
}
