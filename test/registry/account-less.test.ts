import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from 'cloudflare:test';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { signVerifiableModel } from '../../lib/registry-client/index.ts';
import type { Identity } from '../../lib/identity/index.ts';
import type { AgentSearchResponse } from '../../schemas/search.ts';
import worker from '../../workers/registry/src/index.ts';
import { api, freshIdentity, json, migrate, newKey, registered } from './helpers.ts';

beforeAll(migrate);
afterEach(() => vi.restoreAllMocks());

/** An agent known only from a signed almanac attestation: no key, no account. */
async function attestedOnly(identity: Identity, url: string) {
  const attestation = signVerifiableModel(identity, {
    agent_identifier: identity.address,
    protocols: [],
    endpoints: [{ url, weight: 1 }],
    metadata: null,
    timestamp: Math.floor(Date.now() / 1000),
  });
  const response = await api('/v1/almanac/agents', { method: 'POST', json: attestation });
  expect(response.status).toBe(200);
}

async function found(token: string, address: string): Promise<boolean> {
  const response = await api('/v1/search/agents', { method: 'POST', token, json: { search_text: address, limit: 10 } });
  expect(response.status).toBe(200);
  return (await json<AgentSearchResponse>(response)).agents.some((agent) => agent.address === address);
}

describe('agents no account registered (almanac attestation only)', () => {
  it('are not listed in search until an account registers them, then are', async () => {
    const key = await newKey(['read', 'write']);
    const identity = freshIdentity();
    await attestedOnly(identity, 'https://attested.example.com/submit');
    expect((await api(`/v1/almanac/agents/${identity.address}`)).status).toBe(200);
    expect(await found(key.key, identity.address)).toBe(false);

    expect((await registered(identity, key.key, { url: 'https://attested.example.com/submit' })).status).toBeLessThan(300);
    expect(await found(key.key, identity.address)).toBe(true);
  });

  it('are not probed by the cron', async () => {
    const identity = freshIdentity();
    await attestedOnly(identity, 'https://never-probe.example.com/submit');
    const outbound = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response(null, { status: 200 }));
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: '*/5 * * * *' }), env, ctx);
    await waitOnExecutionContext(ctx);
    const urls = outbound.mock.calls.map(([input]) => String(input instanceof Request ? input.url : input));
    expect(urls.some((url) => url.startsWith('https://never-probe.example.com'))).toBe(false);
  });
});
