import { beforeAll, describe, expect, it } from 'vitest';
import type { AgentDetail } from '../../schemas/registry.ts';
import { api, freshIdentity, json, migrate, newKey, registered } from './helpers.ts';

beforeAll(migrate);

describe('GET /v2/agents/handles/{handle}: the agent `@handle` names in a chat', () => {
  it('answers the agent that holds the handle, as the lookup by address does', async () => {
    const owner = await newKey(['read', 'write']);
    const reader = await newKey(['read']);
    const identity = freshIdentity();
    expect((await registered(identity, owner.key, { handle: 'weather-desk' })).status).toBe(200);
    const found = await api('/v2/agents/handles/weather-desk', { token: reader.key });
    expect(found.status).toBe(200);
    expect(await json<AgentDetail>(found)).toMatchObject({ address: identity.address, handle: 'weather-desk' });
  });

  it('404 for a handle nobody holds, 406 (the SDKs’ malformed) for one that cannot be a handle, 401 without a key', async () => {
    const reader = await newKey(['read']);
    expect((await api('/v2/agents/handles/nobody-here', { token: reader.key })).status).toBe(404);
    expect((await api('/v2/agents/handles/has%20space', { token: reader.key })).status).toBe(406);
    expect((await api('/v2/agents/handles/weather-desk')).status).toBe(401);
  });

  it('an unlisted agent’s handle is its owner’s: other accounts get the same 404 as for no agent', async () => {
    const owner = await newKey(['read', 'write']);
    const other = await newKey(['read']);
    const identity = freshIdentity();
    await registered(identity, owner.key, { handle: 'quiet-desk' });
    const unlisted = await api(`/v2/agents/${identity.address}`, { method: 'PUT', token: owner.key, json: { public: false } });
    expect(unlisted.status).toBe(200);
    expect((await api('/v2/agents/handles/quiet-desk', { token: other.key })).status).toBe(404);
    expect((await api('/v2/agents/handles/quiet-desk', { token: owner.key })).status).toBe(200);
  });
});
