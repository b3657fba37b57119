import { beforeAll, describe, expect, it } from 'vitest';
import { api, freshIdentity, migrate } from './helpers.ts';

beforeAll(migrate);

/** Sends anonymous requests from one client IP until one is refused; answers how many passed and the refusal. */
async function floodUntilRefused(path: string, ip: string, max = 1000) {
  for (let passed = 0; passed < max; passed++) {
    const response = await api(path, { headers: { 'cf-connecting-ip': ip } });
    if (response.status === 429) return { passed, response };
    await response.body?.cancel();
  }
  return { passed: max, response: null };
}

describe('a rate limit in front of every registry route', () => {
  it('refuses an anonymous client IP that floods the almanac with 429 {detail} and retry-after; other IPs go on', async () => {
    const path = `/v1/almanac/agents/${freshIdentity().address}`;
    const { passed, response } = await floodUntilRefused(path, '203.0.113.7');
    expect(response, 'no 429 within 1000 requests').not.toBeNull();
    expect(passed).toBeGreaterThanOrEqual(100);
    expect(Number(response!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await response!.json()).toEqual({ detail: expect.stringContaining('too many requests') });
    // The Agentverse CLI's resolve is an SDK-facing route too: refused in its `{detail}` while the window lasts.
    const resolve = await api(`/v2/almanac/resolve/${freshIdentity().address}`, { headers: { 'cf-connecting-ip': '203.0.113.7' } });
    expect(resolve.status).toBe(429);
    expect(await resolve.json()).toEqual({ detail: expect.stringContaining('too many requests') });
    expect((await api(path, { headers: { 'cf-connecting-ip': '203.0.113.8' } })).status).toBe(404);
  }, 120_000);

  it('answers the platform error shape on the platform routes', async () => {
    // The IP the first test flooded: refused at once while its window lasts, flooded again if it has passed (a
    // fresh IP's flood can take a whole local window to be refused, over a minute on a loaded machine).
    const { response } = await floodUntilRefused('/v1/keys', '203.0.113.7');
    expect(response?.status).toBe(429);
    expect(await response!.json()).toMatchObject({ error: { type: 'rate_limit_error', code: 'rate_limited' } });
  }, 120_000);
});
