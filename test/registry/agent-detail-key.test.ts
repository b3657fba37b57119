import { beforeAll, describe, expect, it } from 'vitest';
import { api, freshIdentity, json, migrate, newKey, registered } from './helpers.ts';

/**
 * `GET /v2/agents/{address}` reads the caller's key in the same D1 batch as the agent (one round trip at a
 * million agents, docs/scale.md): the key's refusals and the unlisted agent's privacy are unchanged.
 */
beforeAll(migrate);

describe('agent detail with its key read in the same batch', () => {
  it('answers a read or write key, refuses a missing, unknown or keys-only one', async () => {
    const owner = await newKey(['read', 'write']);
    const identity = freshIdentity();
    expect((await registered(identity, owner.key)).status).toBeLessThan(300);
    const path = `/v2/agents/${identity.address}`;

    const byOwner = await api(path, { token: owner.key });
    expect(byOwner.status).toBe(200);
    expect((await json(byOwner)).address).toBe(identity.address);
    expect((await api(path, { token: (await newKey(['read'])).key })).status).toBe(200);

    const missing = await api(path);
    expect(missing.status).toBe(401);
    expect(await json(missing)).toHaveProperty('detail');
    expect((await api(path, { token: `${owner.key.slice(0, -4)}zzzz` })).status).toBe(401);
    expect((await api(path, { token: (await newKey(['keys'])).key })).status).toBe(403);
  });

  it('shows an unlisted agent to its owner only', async () => {
    const owner = await newKey(['read', 'write']);
    const identity = freshIdentity();
    expect((await registered(identity, owner.key)).status).toBeLessThan(300);
    const path = `/v2/agents/${identity.address}`;
    expect((await api(path, { method: 'PUT', token: owner.key, json: { public: false } })).status).toBe(200);
    expect((await api(path, { token: owner.key })).status).toBe(200);
    expect((await api(path, { token: (await newKey(['read'])).key })).status).toBe(404);
  });

  it('answers 404 for an address nobody registered', async () => {
    const { key } = await newKey(['read']);
    expect((await api(`/v2/agents/${freshIdentity().address}`, { token: key })).status).toBe(404);
  });
});
