import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AgentDetail } from '../../schemas/registry.ts';
import worker from '../../workers/registry/src/index.ts';
import { api, freshIdentity, json, migrate, newKey, prove, registered, registrationBody } from './helpers.ts';

beforeAll(migrate);

async function withEnv(overrides: Partial<RegistryEnv>, request: Request) {
  const ctx = createExecutionContext();
  const response = await worker.fetch(request, { ...env, ...overrides }, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

describe('defaults and hygiene', () => {
  it('refuses the example file’s placeholder admin token, and any admin token too short to be a secret', async () => {
    for (const token of ['replace-with-a-long-random-string', 'admin', 'short-token']) {
      const request = new Request('http://registry.test/v1/keys', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'x', permissions: ['read'] }),
      });
      const response = await withEnv({ ADMIN_TOKEN: token }, request);
      expect(response.status, token).toBe(401);
    }
  });

  it('normalises an uppercase bech32 address to lowercase: one agent, whatever the case it is written in', async () => {
    const key = await newKey(['read', 'write']);
    const identity = freshIdentity();
    expect((await prove(identity, key.key)).status).toBe(200);
    const upper = identity.address.toUpperCase();
    const response = await api('/v2/agents', { method: 'POST', token: key.key, json: registrationBody(identity, { address: upper }) });
    expect(response.status).toBe(200);
    expect((await json<{ agent: AgentDetail }>(response)).agent.address).toBe(identity.address);
    const lookedUp = await api(`/v2/agents/${upper}`, { token: key.key });
    expect(lookedUp.status).toBe(200);
    expect((await json<AgentDetail>(lookedUp)).address).toBe(identity.address);
  });

  it('two agents racing for one handle: one gets it, the other a 409, never a 500', async () => {
    const key = await newKey(['read', 'write']);
    const [a, b] = [freshIdentity(), freshIdentity()];
    await Promise.all([prove(a, key.key), prove(b, key.key)]);
    const handle = `race${crypto.randomUUID().slice(0, 8)}`;
    const statuses = (
      await Promise.all(
        [a, b].map((identity) => api('/v2/agents', { method: 'POST', token: key.key, json: registrationBody(identity, { handle }) })),
      )
    ).map((response) => response.status);
    expect(statuses.sort()).toEqual([200, 409]);
    expect((await registered(freshIdentity(), key.key, { handle })).status).toBe(409);
  });
});
