import { DurableObject } from 'cloudflare:workers';
import type { UsageReport } from '../../../../schemas/chat.ts';
import type { KeyLimits } from '../config/limits.ts';

const WINDOW_MS = 60_000;

/** Where a key stands in its rolling minute, for the x-ratelimit-* headers. */
export interface LimitState {
  limitRequests: number;
  remainingRequests: number;
  resetRequestsMs: number;
  limitTokens: number;
  remainingTokens: number;
  resetTokensMs: number;
}

export type Admission =
  | { ok: true; reservation: string; state: LimitState }
  | { ok: false; limit: 'requests' | 'tokens' | 'request_too_large'; retryAfterMs: number; state: LimitState };

/**
 * One per API key (SQLite-backed): a rolling one-minute window of requests with their tokens, and the key's
 * usage ledger. A Durable Object runs one call at a time and every call here is synchronous SQL, so
 * admissions are exact under any concurrency. A request reserves its prompt plus its completion budget;
 * `settle` replaces the reservation with what it really used.
 */
export class KeyMeter extends DurableObject<ChatEnv> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: ChatEnv) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(`
      CREATE TABLE IF NOT EXISTS recent (id TEXT PRIMARY KEY, at INTEGER NOT NULL, tokens INTEGER NOT NULL);
      CREATE INDEX IF NOT EXISTS recent_at ON recent (at);
      CREATE TABLE IF NOT EXISTS usage (
        id INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL, model TEXT NOT NULL,
        prompt_tokens INTEGER NOT NULL, completion_tokens INTEGER NOT NULL
      );`);
  }

  admit(limits: KeyLimits, tokens: number): Admission {
    const now = Date.now();
    this.sql.exec('DELETE FROM recent WHERE at <= ?', now - WINDOW_MS);
    const rows = this.sql.exec<{ at: number; tokens: number }>('SELECT at, tokens FROM recent ORDER BY at').toArray();
    const used = rows.reduce((sum, row) => sum + row.tokens, 0);

    if (rows.length + 1 > limits.requestsPerMinute) {
      return { ok: false, limit: 'requests', retryAfterMs: rows[0]!.at + WINDOW_MS - now, state: this.state(limits, rows, now) };
    }
    if (tokens > limits.tokensPerMinute) {
      return { ok: false, limit: 'request_too_large', retryAfterMs: WINDOW_MS, state: this.state(limits, rows, now) };
    }
    if (used + tokens > limits.tokensPerMinute) {
      let freed = 0;
      const freeing = rows.find((row) => (freed += row.tokens) >= used + tokens - limits.tokensPerMinute)!;
      return { ok: false, limit: 'tokens', retryAfterMs: freeing.at + WINDOW_MS - now, state: this.state(limits, rows, now) };
    }
    const reservation = crypto.randomUUID();
    this.sql.exec('INSERT INTO recent (id, at, tokens) VALUES (?, ?, ?)', reservation, now, tokens);
    return { ok: true, reservation, state: this.state(limits, [...rows, { at: now, tokens }], now) };
  }

  /** Records what a request really used: in the window (replacing its reservation) and in the ledger. */
  settle(reservation: string, model: string, promptTokens: number, completionTokens: number): void {
    this.sql.exec('UPDATE recent SET tokens = ? WHERE id = ?', promptTokens + completionTokens, reservation);
    this.sql.exec(
      'INSERT INTO usage (at, model, prompt_tokens, completion_tokens) VALUES (?, ?, ?, ?)',
      Date.now(),
      model,
      promptTokens,
      completionTokens,
    );
  }

  /** A request that produced nothing (the provider refused it) still counts as a request, with no tokens. */
  release(reservation: string): void {
    this.sql.exec('UPDATE recent SET tokens = 0 WHERE id = ?', reservation);
  }

  peek(limits: KeyLimits): LimitState {
    const now = Date.now();
    const rows = this.sql.exec<{ at: number; tokens: number }>('SELECT at, tokens FROM recent WHERE at > ? ORDER BY at', now - WINDOW_MS).toArray();
    return this.state(limits, rows, now);
  }

  report(keyId: string, limits: KeyLimits): UsageReport {
    const byModel = this.sql
      .exec<{ model: string; requests: number; prompt_tokens: number; completion_tokens: number }>(
        'SELECT model, COUNT(*) AS requests, SUM(prompt_tokens) AS prompt_tokens, SUM(completion_tokens) AS completion_tokens FROM usage GROUP BY model ORDER BY model',
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

  private state(limits: KeyLimits, rows: { at: number; tokens: number }[], now: number): LimitState {
    const used = rows.reduce((sum, row) => sum + row.tokens, 0);
    const oldest = rows[0] ? rows[0].at + WINDOW_MS - now : 0;
    return {
      limitRequests: limits.requestsPerMinute,
      remainingRequests: Math.max(0, limits.requestsPerMinute - rows.length),
      resetRequestsMs: Math.max(0, oldest),
      limitTokens: limits.tokensPerMinute,
      remainingTokens: Math.max(0, limits.tokensPerMinute - used),
      resetTokensMs: Math.max(0, oldest),
    };
  }
}
