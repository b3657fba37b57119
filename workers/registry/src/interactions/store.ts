import { sweepWindows } from '../limits/rate-windows.ts';

/** Interactions counted per target agent; `recent` is the last RECENT_DAYS days, recomputed on each count and by the cron. */
export const RECENT_DAYS = 30;

export function recentSince(now: Date): string {
  return new Date(now.getTime() - RECENT_DAYS * 24 * 60 * 60 * 1000).toISOString();
}

export async function countInteraction(db: D1Database, target: string, source: string, sessionId: string | null, kind: 'attested' | 'proxy', now = new Date()) {
  const at = now.toISOString();
  const [, , counts] = await db.batch<{ total_interactions: number; recent_interactions: number }>([
    db.prepare('INSERT INTO interactions (target, source, session_id, kind, at) VALUES (?, ?, ?, ?, ?)').bind(target, source, sessionId, kind, at),
    db
      .prepare('UPDATE agents SET total_interactions = total_interactions + 1, recent_interactions = (SELECT count(*) FROM interactions WHERE target = ?1 AND at >= ?2) WHERE address = ?1')
      .bind(target, recentSince(now)),
    db.prepare('SELECT total_interactions, recent_interactions FROM agents WHERE address = ?').bind(target),
  ]);
  return counts?.results[0] ?? { total_interactions: 0, recent_interactions: 0 };
}

/**
 * Claims a one-time token (an attestation nonce, an envelope digest) until `validTo` (unix seconds).
 * False when it was claimed before: the replay counts nothing.
 */
export async function claimOnce(db: D1Database, token: string, address: string, validTo: number): Promise<boolean> {
  const result = await db.prepare('INSERT INTO attestation_nonces (nonce, address, valid_to) VALUES (?, ?, ?) ON CONFLICT (nonce) DO NOTHING').bind(token, address, validTo).run();
  return result.meta.changes === 1;
}

/** Cron housekeeping: forget expired nonces, challenges and rate windows, and let `recent_interactions` age (totals live on the agent row). */
export async function sweep(db: D1Database, now = new Date()) {
  const since = recentSince(now);
  await db.batch([
    sweepWindows(db, now.getTime()),
    db.prepare('DELETE FROM attestation_nonces WHERE valid_to < ?').bind(Math.floor(now.getTime() / 1000) - 60),
    db.prepare('DELETE FROM challenges WHERE expires_at <= ?').bind(now.toISOString()),
    db
      .prepare(
        `UPDATE agents SET recent_interactions = (SELECT count(*) FROM interactions i WHERE i.target = agents.address AND i.at >= ?1)
         WHERE recent_interactions != (SELECT count(*) FROM interactions i WHERE i.target = agents.address AND i.at >= ?1)`,
      )
      .bind(since),
    db.prepare('DELETE FROM interactions WHERE at < ?').bind(since),
  ]);
}
