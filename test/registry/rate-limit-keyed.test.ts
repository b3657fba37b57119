import { beforeAll, describe, expect, it } from 'vitest';
import { api, freshIdentity, migrate } from './helpers.ts';

beforeAll(migrate);

describe('the registry rate limit counts a keyed request against its key', () => {
  it('a key-shaped bearer token is counted against the key, not the client IP; a token of another shape against the IP', async () => {
    const path = `/v1/almanac/agents/${freshIdentity().address}`;
    const ip = '203.0.113.10';
    let refused = false;
    for (let sent = 0; sent < 1000 && !refused; sent++) {
      const response = await api(path, { headers: { 'cf-connecting-ip': ip } });
      refused = response.status === 429;
      await response.body?.cancel();
    }
    expect(refused, 'no 429 within 1000 anonymous requests').toBe(true);
    const keyed = { 'cf-connecting-ip': ip, authorization: `Bearer rdv_0123456789abcdef_${'s'.repeat(43)}` };
    expect((await api(path, { headers: keyed })).status).toBe(404);
    const notAKey = { 'cf-connecting-ip': ip, authorization: 'Bearer not-a-key' };
    expect((await api(path, { headers: notAKey })).status).toBe(429);
  }, 120_000);
});
