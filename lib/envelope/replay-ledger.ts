import { DurableObject } from 'cloudflare:workers';
import { REPLAY_WINDOW_SECONDS, type ReplayGuard } from './replay.ts';

/**
 * One ledger per receiving agent, so a replay is caught whichever isolate receives it. SQLite-backed:
 * a digest row lives until the envelope's `expires` (or REPLAY_WINDOW_SECONDS after receipt when it has
 * none, see verifyEnvelope); past that the digest counts as unseen, and an alarm sweeps such rows.
 */
export class ReplayLedger extends DurableObject<unknown> {
  constructor(ctx: DurableObjectState, env: unknown) {
    super(ctx, env);
    ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS seen (digest TEXT PRIMARY KEY, until REAL NOT NULL)');
  }

  async claim(digestHex: string, expiresAtSeconds: number): Promise<boolean> {
    const sql = this.ctx.storage.sql;
    const inserted = sql.exec('INSERT OR IGNORE INTO seen (digest, until) VALUES (?, ?)', digestHex, expiresAtSeconds).rowsWritten;
    if (inserted === 0) {
      const row = sql.exec<{ until: number }>('SELECT until FROM seen WHERE digest = ?', digestHex).one();
      if (row.until > Date.now() / 1000) return false;
      sql.exec('UPDATE seen SET until = ? WHERE digest = ?', expiresAtSeconds, digestHex);
    }
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + REPLAY_WINDOW_SECONDS * 1000);
    return true;
  }

  /** Forgets a digest, so that an envelope whose handling failed is processed when the sender retries it. */
  async release(digestHex: string): Promise<void> {
    this.ctx.storage.sql.exec('DELETE FROM seen WHERE digest = ?', digestHex);
  }

  override async alarm(): Promise<void> {
    this.ctx.storage.sql.exec('DELETE FROM seen WHERE until <= ?', Date.now() / 1000);
    const left = this.ctx.storage.sql.exec<{ n: number }>('SELECT count(*) AS n FROM seen').one().n;
    if (left > 0) await this.ctx.storage.setAlarm(Date.now() + REPLAY_WINDOW_SECONDS * 1000);
  }
}

/** A ReplayGuard over the ReplayLedger Durable Object named after the receiving agent. */
export function durableReplayGuard(namespace: DurableObjectNamespace<ReplayLedger>, receiver: string): ReplayGuard {
  const stub = namespace.get(namespace.idFromName(receiver));
  return { claim: (digestHex, expiresAtSeconds) => stub.claim(digestHex, expiresAtSeconds) };
}
