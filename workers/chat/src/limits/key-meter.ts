import { DurableObject } from 'cloudflare:workers';
import type { UsageReport } from '../../../../schemas/chat.ts';
import type { KeyCheck } from '../../../../lib/rpc-contracts/index.ts';
import { hashSecret } from '../../../../lib/api-keys/key-token.ts';
import { stillTrusted, type VerifiedKey } from '../auth/verified-key.ts';
import type { ChatBindings } from '../env.ts';
import type { KeyLimits } from '../config/limits.ts';
import { type Admission, type LimitState, RollingWindow } from './rolling-window.ts';

/** What the meter answers for a token: the registry's verdict, or that the registry could not be asked. */
export type MeterKeyCheck = KeyCheck | { ok: false; status: 503; message: string };

const REVOKED: MeterKeyCheck = { ok: false, status: 401, message: 'API key revoked' };

/**
 * One per API key (SQLite-backed): the key's registry verdict, its rolling one-minute window (in memory,
 * RollingWindow) and its usage ledger (stored). A Durable Object runs one call at a time, so admissions are
 * exact under any concurrency. A request reserves its prompt plus its completion budget; `settle` replaces
 * the reservation with what it really used.
 *
 * Being the one instance for its key anywhere, it is also where a verified key is cached: every chat request
 * of the key passes here, and the registry calls `revoke` (through KeyRevocations) before it marks the key
 * revoked, so no request is admitted on a cached verdict once a deletion has been answered.
 */
export class KeyMeter extends DurableObject<ChatBindings> {
  private readonly sql: SqlStorage;
  private readonly window = new RollingWindow();
  private verified: VerifiedKey | null = null;
  private revoked: boolean;

  constructor(ctx: DurableObjectState, env: ChatBindings) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    // `recent` held the rate-limit window before it moved to memory; dropping it frees the old rows.
    this.sql.exec(`
      DROP TABLE IF EXISTS recent;
      CREATE TABLE IF NOT EXISTS revocation (at INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS usage_totals (
        model TEXT PRIMARY KEY, requests INTEGER NOT NULL, prompt_tokens INTEGER NOT NULL, completion_tokens INTEGER NOT NULL
      );`);
    // The ledger was a row per request (growing without end); its rows fold into the running totals once.
    if (this.sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'usage'").toArray().length) {
      this.sql.exec(`
        INSERT INTO usage_totals (model, requests, prompt_tokens, completion_tokens)
          SELECT model, COUNT(*), SUM(prompt_tokens), SUM(completion_tokens) FROM usage GROUP BY model
          ON CONFLICT (model) DO UPDATE SET requests = requests + excluded.requests,
            prompt_tokens = prompt_tokens + excluded.prompt_tokens, completion_tokens = completion_tokens + excluded.completion_tokens;
        DROP TABLE usage;`);
    }
    this.revoked = this.sql.exec('SELECT 1 FROM revocation LIMIT 1').toArray().length > 0;
  }

  /** The key's verdict for `token`: remembered when the registry verified this token lately, else asked anew. */
  async authenticate(token: string): Promise<MeterKeyCheck> {
    if (this.revoked) return REVOKED;
    const tokenHash = hashSecret(token);
    const known = this.verified;
    if (known && stillTrusted(known, tokenHash, Date.now())) return known.check;
    let check: KeyCheck;
    try {
      check = await this.env.REGISTRY.authenticate(token, 'chat');
    } catch (error) {
      console.error('key service unreachable', error);
      return { ok: false, status: 503, message: 'the key service is unreachable' };
    }
    // A revocation may have arrived while the registry answered (this object takes calls while it waits).
    if (this.revoked) return REVOKED;
    if (check.ok) this.verified = { tokenHash, check, verifiedAt: Date.now() };
    else if (this.verified?.tokenHash === tokenHash) this.verified = null;
    return check;
  }

  /** Called (through KeyRevocations) before the registry revokes the key: from now on every token of it is refused. */
  revoke(): void {
    if (!this.revoked) this.sql.exec('INSERT INTO revocation (at) VALUES (?)', Date.now());
    this.revoked = true;
    this.verified = null;
  }

  /** Called (through KeyRevocations) after the registry changed the key: the next request asks the registry again. */
  forget(): void {
    this.verified = null;
  }

  admit(limits: KeyLimits, tokens: number): Admission {
    return this.window.admit(limits, tokens, Date.now());
  }

  /** Records what a request really used: in the window (replacing its reservation) and in the ledger. */
  settle(reservation: string, model: string, promptTokens: number, completionTokens: number): void {
    this.window.settle(reservation, promptTokens + completionTokens);
    this.sql.exec(
      `INSERT INTO usage_totals (model, requests, prompt_tokens, completion_tokens) VALUES (?1, 1, ?2, ?3)
       ON CONFLICT (model) DO UPDATE SET requests = requests + 1, prompt_tokens = prompt_tokens + ?2, completion_tokens = completion_tokens + ?3`,
      model,
      promptTokens,
      completionTokens,
    );
  }

  /** A request that produced nothing (the provider refused it) still counts as a request, with no tokens. */
  release(reservation: string): void {
    this.window.settle(reservation, 0);
  }

  peek(limits: KeyLimits): LimitState {
    return this.window.state(limits, Date.now());
  }

  report(keyId: string, limits: KeyLimits): UsageReport {
    const byModel = this.sql
      .exec<{ model: string; requests: number; prompt_tokens: number; completion_tokens: number }>(
        'SELECT model, requests, prompt_tokens, completion_tokens FROM usage_totals ORDER BY model',
      )
      .toArray()
      .map((row) => ({ ...row, total_tokens: row.prompt_tokens + row.completion_tokens }));
    const totals = byModel.reduce(
      (sum, row) => ({
        requests: sum.requests + row.requests,
        prompt_tokens: sum.prompt_tokens + row.prompt_tokens,
        completion_tokens: sum.completion_tokens + row.completion_tokens,
        total_tokens: sum.total_tokens + row.total_tokens,
      }),
      { requests: 0, prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    );
    return {
      object: 'usage',
      key_id: keyId,
      totals,
      by_model: byModel,
      limits: { requests_per_minute: limits.requestsPerMinute, tokens_per_minute: limits.tokensPerMinute },
    };
  }
}
