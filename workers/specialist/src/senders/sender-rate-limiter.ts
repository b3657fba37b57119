import { envCount } from '../../../../lib/config/env-number.ts';
import { DurableObject } from 'cloudflare:workers';

/**
 * One counter per sender address (one object per address, named by it), so that every instance of the
 * specialist counts a sender's requests together: at most `perMinute` in a minute that starts with the
 * sender's first request. State lives in memory: the object is evicted only after being idle, by when the
 * window has long ended.
 */
export class SenderRateLimiter extends DurableObject {
  private windowStart = 0;
  private count = 0;

  /** Counts one request; answers 0 when it is within the budget, else the seconds until the window ends. */
  take(perMinute: number): number {
    const now = Date.now();
    if (now - this.windowStart >= 60_000) {
      this.windowStart = now;
      this.count = 0;
    }
    if (this.count >= perMinute) return Math.max(1, Math.ceil((this.windowStart + 60_000 - now) / 1000));
    this.count += 1;
    return 0;
  }
}

const DEFAULT_PER_MINUTE = 120;

/**
 * A configured budget per sender and minute; a typo falls back to `fallback` (another setting) or the
 * default, rather than to no limit.
 */
export function senderRatePerMinute(configured: string | undefined, fallback?: string): number {
  const otherwise = fallback === undefined ? DEFAULT_PER_MINUTE : senderRatePerMinute(fallback);
  return envCount(configured, otherwise);
}

export function senderRateLimiter(
  namespace: DurableObjectNamespace<SenderRateLimiter>,
  sender: string,
): DurableObjectStub<SenderRateLimiter> {
  return namespace.get(namespace.idFromName(sender));
}
