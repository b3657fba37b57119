/**
 * Fixed-window counters in D1: the same budget holds across every isolate and colo, which a per-isolate
 * counter would not, and a daily cap needs a day-long memory that Cloudflare's Rate Limiting binding lacks.
 */
export interface WindowLimit {
  /** Names the budget (`proxy-sender`); one counter per name, key and window. */
  name: string;
  limit: number;
  windowSeconds: number;
}

export type LimitVerdict = { ok: true } | { ok: false; limit: WindowLimit; retryAfterSeconds: number };

/**
 * Takes one unit from each budget in order and stops at the first that is spent, so a caller refused by its
 * own budget does not use up the next one (a noisy sender does not spend its target's budget).
 */
export async function takeFromWindows(
  db: D1Database,
  budgets: { limit: WindowLimit; key: string }[],
  now = Date.now(),
): Promise<LimitVerdict> {
  const nowSeconds = Math.floor(now / 1000);
  for (const { limit, key } of budgets) {
    const start = nowSeconds - (nowSeconds % limit.windowSeconds);
    const end = start + limit.windowSeconds;
    const row = await db
      .prepare(
        'INSERT INTO rate_windows (bucket, count, expires_at) VALUES (?, 1, ?) ON CONFLICT (bucket) DO UPDATE SET count = count + 1 RETURNING count',
      )
      .bind(`${limit.name}:${key}:${start}`, end)
      .first<{ count: number }>();
    if ((row?.count ?? 0) > limit.limit) return { ok: false, limit, retryAfterSeconds: Math.max(1, end - nowSeconds) };
  }
  return { ok: true };
}

/** Cron housekeeping: windows that ended are forgotten. */
export function sweepWindows(db: D1Database, now = Date.now()): D1PreparedStatement {
  return db.prepare('DELETE FROM rate_windows WHERE expires_at <= ?').bind(Math.floor(now / 1000));
}
