import { envNumber } from '../../../../lib/config/env-number.ts';
import { DurableObject } from 'cloudflare:workers';

/**
 * One token bucket for every instance of the specialist (a single named object), so that together they
 * stay under the SEC's limit of 10 requests per second. Callers reserve a token and are told how long to
 * wait for it; reservations queue up in order rather than fail.
 *
 * The bucket holds at most one token: with a larger burst a full bucket plus a second of refill would let
 * more than `rate` requests through within one second. State lives in memory: the object is only evicted
 * after being idle, by which time the bucket would be full again anyway.
 */
export class EdgarRateLimiter extends DurableObject {
  private tokens = 1;
  private updatedAt = Date.now();

  /**
   * Takes one token at `ratePerSecond` (kept positive by `edgarRatePerSecond`); answers the milliseconds to
   * wait before using it (0 = now).
   */
  reserve(ratePerSecond: number): number {
    const now = Date.now();
    this.tokens = Math.min(1, this.tokens + ((now - this.updatedAt) / 1000) * ratePerSecond);
    this.updatedAt = now;
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : Math.ceil((-this.tokens / ratePerSecond) * 1000);
  }
}

/** The SEC's published ceiling for automated access. */
const SEC_MAX_REQUESTS_PER_SECOND = 10;

/** The configured rate, kept within (0, 10]: a typo in the config cannot break the SEC's fair-access rule. */
export function edgarRatePerSecond(configured: string | undefined, fallback = 9): number {
  return Math.min(envNumber(configured, fallback), SEC_MAX_REQUESTS_PER_SECOND);
}

/** The one bucket all instances share. */
export function edgarRateLimiter(namespace: DurableObjectNamespace<EdgarRateLimiter>): DurableObjectStub<EdgarRateLimiter> {
  return namespace.get(namespace.idFromName('sec.gov'));
}
