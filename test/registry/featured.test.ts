import { beforeAll, describe, expect, it } from 'vitest';
import type { FeaturedAgent, FeaturedAgentList } from '../../schemas/featured.ts';
import { Identity } from '../../lib/identity/index.ts';
import { generateAgents } from './fixtures/corpus/generate.ts';
import { searchAgents } from './fixtures/search-client.ts';
import { ADMIN_TOKEN, api, json, newKey } from './helpers.ts';
import { seedRegistry } from './fixtures/seeded-registry.ts';

const agents = [...generateAgents(12, 404)].map((agent) => ({ ...agent, is_active: true, featured: false }));
let reader: string;

beforeAll(async () => {
  reader = (await seedRegistry(agents)).token;
});

const featured = async () =>
  (await json<FeaturedAgentList>(await api('/v1/featured-agents', { token: ADMIN_TOKEN }))).agents.map((agent) => agent.address);

describe('featured agents (/v1/featured-agents, admin token)', () => {
  it('features an agent: listed as featured, first when browsing by relevancy, its record says so; and unfeatures it', async () => {
    const before = await searchAgents(reader, {});
    const pick = agents.find((agent) => agent.address !== before.agents[0]!.address)!;

    const put = await api(`/v1/featured-agents/${pick.address}`, { method: 'PUT', token: ADMIN_TOKEN });
    expect(put.status).toBe(200);
    expect(await json<FeaturedAgent>(put)).toEqual({ address: pick.address, name: pick.name, featured: true });
    expect(await featured()).toEqual([pick.address]);
    const browsed = await searchAgents(reader, {});
    expect(browsed.agents[0]).toMatchObject({ address: pick.address, featured: true });

    const again = await api(`/v1/featured-agents/${pick.address}`, { method: 'PUT', token: ADMIN_TOKEN });
    expect(again.status).toBe(200);
    expect(await featured()).toEqual([pick.address]);

    const removed = await api(`/v1/featured-agents/${pick.address}`, { method: 'DELETE', token: ADMIN_TOKEN });
    expect(await json<FeaturedAgent>(removed)).toMatchObject({ address: pick.address, featured: false });
    expect(await featured()).toEqual([]);
    expect((await searchAgents(reader, {})).agents.map((agent) => agent.address)).toEqual(before.agents.map((agent) => agent.address));
  });

  it('takes only the admin token: 401 without a token, 403 for any API key or a wrong token', async () => {
    const address = agents[0]!.address;
    expect((await api(`/v1/featured-agents/${address}`, { method: 'PUT' })).status).toBe(401);
    const manager = await newKey(['read', 'write', 'chat', 'keys']);
    for (const token of [manager.key, 'not-the-admin-token']) {
      const response = await api(`/v1/featured-agents/${address}`, { method: 'PUT', token });
      expect(response.status).toBe(403);
      expect(await json(response)).toMatchObject({ error: { type: 'permission_error', code: 'admin_only' } });
    }
    expect((await api('/v1/featured-agents', { token: manager.key })).status).toBe(403);
    expect(await featured()).toEqual([]);
  });

  it('400 for what is not an agent address, 404 for an agent nobody registered', async () => {
    const bad = await api('/v1/featured-agents/not-an-address', { method: 'PUT', token: ADMIN_TOKEN });
    expect(bad.status).toBe(400);
    expect(await json(bad)).toMatchObject({ error: { param: 'address' } });
    const stranger = Identity.fromSeed('featured test stranger', 0).address;
    const missing = await api(`/v1/featured-agents/${stranger}`, { method: 'PUT', token: ADMIN_TOKEN });
    expect(missing.status).toBe(404);
    expect(await json(missing)).toMatchObject({ error: { code: 'unknown_agent', param: 'address' } });
  });
});
