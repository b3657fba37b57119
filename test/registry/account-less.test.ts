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

  it('are not embedded for semantic search by the cron; an agent an account registered is', async () => {
    const attested = freshIdentity();
    await attestedOnly(attested, 'https://never-embed.example.com/submit');
    const owned = freshIdentity();
    expect((await registered(owned, (await newKey(['read', 'write'])).key, { url: 'https://owned.example.com/submit' })).status).toBe(200);
    // Stand-ins for Workers AI and Vectorize, which the test pool does not bind.
    const ai = { run: async (_model: string, input: { text: string[] }) => ({ data: input.text.map(() => [1, 0, 0]) }) };
    const index = { upsert: async () => ({}), deleteByIds: async () => ({}), query: async () => ({ matches: [] }) };
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response(null, { status: 200 }));
    const ctx = createExecutionContext();
    await worker.scheduled(
      createScheduledController({ scheduledTime: Date.now(), cron: '*/5 * * * *' }),
      { ...env, AI: ai as unknown as Ai, VECTORIZE: index as unknown as VectorizeIndex },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    const embedded = async (address: string) =>
      (await env.DB.prepare('SELECT 1 AS found FROM search_embeddings WHERE address = ?').bind(address).first()) !== null;
    expect(await embedded(owned.address)).toBe(true);
    expect(await embedded(attested.address)).toBe(false);
  });
});
