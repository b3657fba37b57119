import { describe, expect, it } from 'vitest';
import type { AlmanacRecord } from '../../schemas/registry.ts';
import { ALMANAC_CACHE_MAX, AlmanacResolver } from '../../lib/agent/resolver.ts';

/**
 * The agent runtime's almanac cache is module state, shared by every request an isolate serves: bounded, so an
 * agent that sends to ever new addresses keeps at most ALMANAC_CACHE_MAX answers. Observed through the almanac
 * requests the resolver makes (a cached address is not asked again within five minutes). Each test uses its own
 * registry URL, so it starts with no answer of its own in the shared cache.
 */
function countingAlmanac() {
  const asked = new Map<string, number>();
  const doFetch = (async (input: RequestInfo | URL) => {
    const address = decodeURIComponent(String(input).split('/').pop()!);
    asked.set(address, (asked.get(address) ?? 0) + 1);
    const record: AlmanacRecord = {
      address,
      name: address,
      status: 'active',
      type: 'uagent',
      url: `https://agents.example/${address}`,
      endpoints: [],
      protocols: [],
      metadata: null,
      domain_name: null,
      expiry: '2099-01-01T00:00:00Z',
      last_updated: '2026-11-27T00:00:00Z',
      registered: true,
    };
    return Response.json(record);
  }) as typeof fetch;
  return { asked, doFetch };
}

const others = (count: number, prefix: string) => Array.from({ length: count }, (_, i) => `${prefix}-${i}`);

describe('almanac answers kept per isolate', () => {
  it('keeps at most ALMANAC_CACHE_MAX addresses: past that, the least recently used one is asked again', async () => {
    const { asked, doFetch } = countingAlmanac();
    const resolver = new AlmanacResolver('https://registry.bound-a.example', doFetch);
    await resolver.resolve('first');
    await resolver.resolve('first');
    expect(asked.get('first')).toBe(1);
    for (const address of others(ALMANAC_CACHE_MAX, 'other')) await resolver.resolve(address);
    expect(await resolver.resolve('first')).toEqual(['https://agents.example/first']);
    expect(asked.get('first')).toBe(2);
  });

  it('an address used again is kept over one used longer ago', async () => {
    const { asked, doFetch } = countingAlmanac();
    const resolver = new AlmanacResolver('https://registry.bound-b.example', doFetch);
    await resolver.resolve('kept');
    await resolver.resolve('dropped');
    for (const address of others(ALMANAC_CACHE_MAX - 2, 'filler')) await resolver.resolve(address);
    await resolver.resolve('kept');
    await resolver.resolve('newcomer');
    await resolver.resolve('kept');
    await resolver.resolve('dropped');
    expect(asked.get('kept')).toBe(1);
    expect(asked.get('dropped')).toBe(2);
  });
});
