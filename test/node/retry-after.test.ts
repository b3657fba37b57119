import { describe, expect, it } from 'vitest';
import { retryAfterMs } from '../../lib/agent/delivery.ts';

describe('Retry-After as a wait in milliseconds', () => {
  const now = Date.parse('2026-11-23T12:00:00Z');

  it('reads seconds and HTTP dates; a date already past is no wait', () => {
    expect(retryAfterMs('5', now)).toBe(5000);
    expect(retryAfterMs(' 0 ', now)).toBe(0);
    expect(retryAfterMs('Mon, 23 Nov 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Mon, 23 Nov 2026 11:00:00 GMT', now)).toBe(0);
  });

  it('is undefined when absent or unreadable', () => {
    expect(retryAfterMs(null, now)).toBeUndefined();
    expect(retryAfterMs('', now)).toBeUndefined();
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs('-3', now)).toBeUndefined();
  });
});
