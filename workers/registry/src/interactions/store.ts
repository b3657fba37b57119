import { sweepWindows } from '../limits/rate-windows.ts';

/** Interactions counted per target agent; `recent` is the last RECENT_DAYS days, recomputed on each count and by the cron. */
const RECENT_DAYS = 30;

function recentSince(now: Date): string {
  return new Date(now.getTime() - RECENT_DAYS * 24 * 60 * 60 * 1000).toISOString();
}

/** Interactions counted per source → target and UTC day: beyond it, talking more ranks nothing higher. */
export const DAILY_INTERACTIONS_PER_PAIR = 10;

export interface InteractionCount {
  counted: boolean;
  total_interactions: number;
  recent_interactions: number;
}

/**
 * Counts an interaction when it can shape ranking honestly: its source is an agent an account registered
 * (not an identity made for the purpose), not the target itself, and within the pair's daily cap. The
 * insert is conditional, so concurrent counts cannot pass the cap together. `db` is the target's shard; a
 * source on another shard was looked up there by the caller (`sourceRegistered`), else it is read here.
 */
export async function countInteraction(
  db: Pick<D1Database, 'prepare' | 'batch'>,
  target: string,
  source: string,
  sessionId: string | null,
  kind: 'attested' | 'proxy',
  sourceRegistered: boolean | null = null,
  now = new Date(),
): Promise<InteractionCount> {
  const at = now.toISOString();
  const dayStart = `${at.slice(0, 10)}T00:00:00.000Z`;
  const inserted = await db
    .prepare(
      `INSERT INTO interactions (target, source, session_id, kind, at)
       SELECT ?1, ?2, ?3, ?4, ?5
       WHERE ?1 != ?2
         AND coalesce(?8, EXISTS (SELECT 1 FROM agents WHERE address = ?2 AND account_id IS NOT NULL))
         AND (SELECT count(*) FROM interactions WHERE target = ?1 AND at >= ?6 AND source = ?2) < ?7`,
    )
    .bind(
      target,
      source,
      sessionId,
      kind,
      at,
      dayStart,
      DAILY_INTERACTIONS_PER_PAIR,
      sourceRegistered === null ? null : Number(sourceRegistered),
    )
    .run();
  const counted = inserted.meta.changes === 1;
  const read = db.prepare('SELECT total_interactions, recent_interactions FROM agents WHERE address = ?').bind(target);
  if (!counted)
    return { counted, ...((await read.first<Omit<InteractionCount, 'counted'>>()) ?? { total_interactions: 0, recent_interactions: 0 }) };
  const [, counts] = await db.batch<Omit<InteractionCount, 'counted'>>([
    db
      .prepare(
        'UPDATE agents SET total_interactions = total_interactions + 1, recent_interactions = (SELECT count(*) FROM interactions WHERE target = ?1 AND at >= ?2) WHERE address = ?1',
      )
      .bind(target, recentSince(now)),
    read,
  ]);
  return { counted, ...(counts?.results[0] ?? { total_interactions: 0, recent_interactions: 0 }) };
}

/** One-time tokens are remembered a day at most (envelopes and attestations are refused or forgotten by then). */
const MAX_REMEMBERED_SECONDS = 24 * 60 * 60 + 60;
const latestRemembered = (now: Date) => Math.floor(now.getTime() / 1000) + MAX_REMEMBERED_SECONDS;

/** Search sessions serve paging and click attribution for a week; clicks weigh in ranking for 90 days. */
const SESSION_DAYS = 7;
const CLICK_DAYS = 90;
const daysBefore = (now: Date, days: number) => new Date(now.getTime() - days * 24 * 60 * 60 * 1000).toISOString();

/**
 * Claims a one-time token (an attestation nonce, an envelope digest) until `validTo` (unix seconds).
 * False when it was claimed before: the replay counts nothing.
 */
export async function claimOnce(db: D1Database, token: string, address: string, validTo: number, now = new Date()): Promise<boolean> {
  const until = Math.min(validTo, latestRemembered(now));
  const result = await db
    .prepare('INSERT INTO attestation_nonces (nonce, address, valid_to) VALUES (?, ?, ?) ON CONFLICT (nonce) DO NOTHING')
    .bind(token, address, until)
    .run();
  return result.meta.changes === 1;
}

/**
 * Cron housekeeping: forget expired nonces, challenges, rate windows, old search sessions and clicks, and let
 * `recent_interactions` age (totals live on the agent row).
 */
export async function sweep(db: D1Database, now = new Date()) {
  const since = recentSince(now);
  await db.batch([
    sweepWindows(db, now.getTime()),
    db.prepare('UPDATE attestation_nonces SET valid_to = ?1 WHERE valid_to > ?1').bind(latestRemembered(now)),
    db.prepare('DELETE FROM search_sessions WHERE started_at < ?').bind(daysBefore(now, SESSION_DAYS)),
    db.prepare('DELETE FROM search_clicks WHERE clicked_at < ?').bind(daysBefore(now, CLICK_DAYS)),
    db.prepare('DELETE FROM attestation_nonces WHERE valid_to < ?').bind(Math.floor(now.getTime() / 1000) - 60),
    db.prepare('DELETE FROM challenges WHERE expires_at <= ?').bind(now.toISOString()),
    db
      .prepare(
        // Only the agents whose interactions age out in this run (deleted just below): a count changes by nothing
        // else, and the statement costs the interactions that expire, not one lookup per registered agent.
        `UPDATE agents SET recent_interactions = (SELECT count(*) FROM interactions i WHERE i.target = agents.address AND i.at >= ?1)
         WHERE address IN (SELECT target FROM interactions WHERE at < ?1)`,
      )
      .bind(since),
    db.prepare('DELETE FROM interactions WHERE at < ?').bind(since),
  ]);
}
