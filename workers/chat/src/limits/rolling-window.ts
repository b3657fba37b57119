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

interface Entry {
  id: string;
  at: number;
  tokens: number;
}

/**
 * One key's requests of the last minute with their tokens, in memory. Its owner (the key's Durable Object)
 * runs one call at a time, so admissions are exact under any concurrency; keeping it out of storage spares
 * each admission a durable write (docs/decisions/0004).
 */
export class RollingWindow {
  /** Oldest first: entries are added at `Date.now()`, which does not go back within an object's life. */
  private entries: Entry[] = [];

  admit(limits: KeyLimits, tokens: number, now: number): Admission {
    this.forget(now);
    const used = this.used();
    if (this.entries.length + 1 > limits.requestsPerMinute) {
      return { ok: false, limit: 'requests', retryAfterMs: this.entries[0]!.at + WINDOW_MS - now, state: this.state(limits, now) };
    }
    if (tokens > limits.tokensPerMinute) {
      return { ok: false, limit: 'request_too_large', retryAfterMs: WINDOW_MS, state: this.state(limits, now) };
    }
    if (used + tokens > limits.tokensPerMinute) {
      let freed = 0;
      const freeing = this.entries.find((entry) => {
        freed += entry.tokens;
        return freed >= used + tokens - limits.tokensPerMinute;
      })!;
      return { ok: false, limit: 'tokens', retryAfterMs: freeing.at + WINDOW_MS - now, state: this.state(limits, now) };
    }
    const reservation = crypto.randomUUID();
    this.entries.push({ id: reservation, at: now, tokens });
    return { ok: true, reservation, state: this.state(limits, now) };
  }

  /** Replaces a reservation's tokens with what the request really used (0 when it produced nothing). */
  settle(reservation: string, tokens: number): void {
    const entry = this.entries.find((e) => e.id === reservation);
    if (entry) entry.tokens = tokens;
  }

  state(limits: KeyLimits, now: number): LimitState {
    this.forget(now);
    const used = this.used();
    const oldest = this.entries[0] ? this.entries[0].at + WINDOW_MS - now : 0;
    return {
      limitRequests: limits.requestsPerMinute,
      remainingRequests: Math.max(0, limits.requestsPerMinute - this.entries.length),
      resetRequestsMs: Math.max(0, oldest),
      limitTokens: limits.tokensPerMinute,
      remainingTokens: Math.max(0, limits.tokensPerMinute - used),
      resetTokensMs: Math.max(0, oldest),
    };
  }

  private forget(now: number): void {
    const kept = this.entries.findIndex((entry) => entry.at > now - WINDOW_MS);
    if (kept !== 0) this.entries = kept < 0 ? [] : this.entries.slice(kept);
  }

  private used(): number {
    return this.entries.reduce((sum, entry) => sum + entry.tokens, 0);
  }
}
