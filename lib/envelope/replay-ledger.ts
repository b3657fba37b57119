import { DurableObject } from 'cloudflare:workers';
import { REPLAY_WINDOW_SECONDS, type ClaimOutcome, type ReplayGuard } from './replay.ts';

/**
 * How long a webhook handler may hold a claimed digest before the next copy of the envelope may take it
 * over. A handler settles (success) or releases (failure) its claim; one that does neither died with its
 * isolate, and without this lease the sender's retry would be refused as a replay and the message lost.
 * Longer than any handler should run: a copy arriving within the lease is told to come back later.
 */
export const HANDLER_LEASE_SECONDS = 120;

/**
 * One ledger per receiving agent, so a replay is caught whichever isolate receives it. SQLite-backed:
 * a digest row lives until the envelope's `expires` (or REPLAY_WINDOW_SECONDS after receipt when it has
 * none, see verifyEnvelope); past that the digest counts as unseen, and an alarm sweeps such rows.
 * `handling` holds the leases of claims whose handler has not settled yet.
 */
export class ReplayLedger extends DurableObject<unknown> {
  constructor(ctx: DurableObjectState, env: unknown) {
    super(ctx, env);
    ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS seen (digest TEXT PRIMARY KEY, until REAL NOT NULL)');
    ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS handling (digest TEXT PRIMARY KEY, lease_until REAL NOT NULL)');
  }

  /**
   * Claims a digest until `expiresAtSeconds`. With `leaseSeconds` the claim stays open (in progress) until
   * `settle` or `release`, or until the lease runs out, when the next copy takes it over.
   */
  async claim(digestHex: string, expiresAtSeconds: number, leaseSeconds = 0): Promise<ClaimOutcome> {
    const sql = this.ctx.storage.sql;
    const now = Date.now() / 1000;
    const seen = sql.exec<{ until: number }>('SELECT until FROM seen WHERE digest = ?', digestHex).toArray()[0];
    if (seen && seen.until > now) {
      const lease = sql.exec<{ lease_until: number }>('SELECT lease_until FROM handling WHERE digest = ?', digestHex).toArray()[0];
      if (!lease) return 'replayed';
      if (lease.lease_until > now) return 'in_progress';
    }
    sql.exec('INSERT OR REPLACE INTO seen (digest, until) VALUES (?, ?)', digestHex, expiresAtSeconds);
    if (leaseSeconds > 0) sql.exec('INSERT OR REPLACE INTO handling (digest, lease_until) VALUES (?, ?)', digestHex, now + leaseSeconds);
    else sql.exec('DELETE FROM handling WHERE digest = ?', digestHex);
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + REPLAY_WINDOW_SECONDS * 1000);
    return 'claimed';
  }

  /** The handler finished: from now on a copy is a replay. */
  async settle(digestHex: string): Promise<void> {
    this.ctx.storage.sql.exec('DELETE FROM handling WHERE digest = ?', digestHex);
  }

  /** Forgets a digest, so that an envelope whose handling failed is processed when the sender retries it. */
  async release(digestHex: string): Promise<void> {
    this.ctx.storage.sql.exec('DELETE FROM seen WHERE digest = ?', digestHex);
    this.ctx.storage.sql.exec('DELETE FROM handling WHERE digest = ?', digestHex);
  }

  override async alarm(): Promise<void> {
    const sql = this.ctx.storage.sql;
    sql.exec('DELETE FROM seen WHERE until <= ?', Date.now() / 1000);
    sql.exec('DELETE FROM handling WHERE digest NOT IN (SELECT digest FROM seen)');
    const left = sql.exec<{ n: number }>('SELECT count(*) AS n FROM seen').one().n;
    if (left > 0) await this.ctx.storage.setAlarm(Date.now() + REPLAY_WINDOW_SECONDS * 1000);
  }
}

/**
 * A ReplayGuard over the ReplayLedger Durable Object named after the receiving agent. With `leaseSeconds`
 * claims stay in progress until the caller settles or releases them (webhook handlers).
 */
export function durableReplayGuard(namespace: DurableObjectNamespace<ReplayLedger>, receiver: string, leaseSeconds = 0): ReplayGuard {
  return ledgerGuard(namespace.get(namespace.idFromName(receiver)), leaseSeconds);
}

/** The same over a ledger stub the caller already holds (to settle or release its claims afterwards). */
export function ledgerGuard(stub: DurableObjectStub<ReplayLedger>, leaseSeconds = 0): ReplayGuard {
  return { claim: (digestHex, expiresAtSeconds) => stub.claim(digestHex, expiresAtSeconds, leaseSeconds) };
}
