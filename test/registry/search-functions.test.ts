import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FunctionSearchResponse } from '../../schemas/search.ts';
import { generateAgents } from './fixtures/corpus/generate.ts';
import { post } from './fixtures/search-client.ts';
import { seedRegistry } from './fixtures/seeded-registry.ts';

const agents = [...generateAgents(72, 31)];
const listed = agents.filter((agent) => agent.is_active);
const payloadAgents = listed.filter((agent) => agent.readme.includes('<payload_requirements>'));
const protocolCount = listed.reduce((sum, agent) => sum + agent.protocols.length, 0);

let token: string;

async function searchFunctions(body: Record<string, unknown>): Promise<FunctionSearchResponse> {
  const response = await post('/v1/search/functions', token, body);
  if (response.status !== 200) throw new Error(`function search answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as FunctionSearchResponse;
}

beforeAll(async () => {
  token = (await seedRegistry(agents)).token;
});

describe('POST /v1/search/functions', () => {
  it('lists every declared function of listed agents, README payloads and registered protocols', async () => {
    const all = await searchFunctions({ limit: 100 });
    expect(all.total).toBe(payloadAgents.length + protocolCount);
    expect(all.search_id).toMatch(/^[0-9a-f-]{36}$/);
    const payloads = await searchFunctions({ function_type: 'payload', limit: 100 });
    expect(payloads.total).toBe(payloadAgents.length);
    expect(payloads.functions.map((f) => f.agent_address).sort()).toEqual(payloadAgents.map((a) => a.address).sort());
    const protocols = await searchFunctions({ filters: { function_type: ['protocol'] }, limit: 100 });
    expect(protocols.total).toBe(protocolCount);
    for (const fn of protocols.functions) expect(fn.protocol_digest).toMatch(/^proto:[0-9a-f]{64}$/);
  });

  it('finds functions by what their parameters mean, with the function item fields', async () => {
    const found = await searchFunctions({ search_text: 'tracking number' });
    expect(found.total).toBeGreaterThan(0);
    const weatherish = found.functions[0]!;
    expect(weatherish).toMatchObject({
      id: `${weatherish.agent_address}:payload:0`,
      name: 'payload',
      function_type: 'payload',
      protocol_digest: null,
      agent_name: expect.any(String),
      last_updated: expect.any(String),
    });
    expect(weatherish.parameters).toContainEqual({ name: 'tracking_number', description: 'Carrier tracking number', required: true });
    const owner = agents.find((agent) => agent.address === weatherish.agent_address)!;
    expect(owner.domain).toBe('shipping');
  });

  it('tolerates typos and prefixes like agent search', async () => {
    for (const text of ['trackng', 'destinat']) expect((await searchFunctions({ search_text: text })).total).toBeGreaterThan(0);
  });

  // The window fields are agent search's: Agentverse's named cutoff and any source label, as there.
  it('takes cutoff "balanced" (no extra cut) and a source of any text, like agent search', async () => {
    const plain = await searchFunctions({ search_text: 'tracking number' });
    const labelled = await searchFunctions({ search_text: 'tracking number', cutoff: 'balanced', source: 'My App (web, v2)' });
    expect(labelled.functions.map((f) => f.id)).toEqual(plain.functions.map((f) => f.id));
    expect((await post('/v1/search/functions', token, { cutoff: 'loose' })).status).toBe(400);
  });

  it('pages without repeating or skipping, and sorts by the agent', async () => {
    const total = (await searchFunctions({})).total;
    const ids: string[] = [];
    let search_id: string | undefined;
    for (let offset = 0; offset < total; offset += 9) {
      const page = await searchFunctions({ sort: 'created-at', direction: 'asc', limit: 9, offset, search_id });
      search_id = page.search_id;
      expect(page.num_hits).toBe(page.functions.length);
      ids.push(...page.functions.map((f) => f.id));
    }
    expect(new Set(ids).size).toBe(total);
    const created = new Map(agents.map((agent) => [agent.address, agent.created_at]));
    const all = await searchFunctions({ sort: 'created-at', direction: 'asc', limit: 100 });
    const keys = all.functions.map((f) => created.get(f.agent_address)!);
    expect(keys).toEqual([...keys].sort());
  });

  it('400 for a function_type outside payload | protocol, 401 without a key', async () => {
    const bad = await post('/v1/search/functions', token, { function_type: 'tool' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { param: 'function_type' } });
    expect((await post('/v1/search/functions', token, { filters: { function_type: ['x'] } })).status).toBe(400);
    expect((await post('/v1/search/functions', null, {})).status).toBe(401);
  });

  it('leaves out the functions of unlisted agents (public: false), as agent search does', async () => {
    const hidden = payloadAgents[0]!;
    await env.DB.prepare('UPDATE agents SET is_public = 0 WHERE address = ?').bind(hidden.address).run();
    try {
      const found = await searchFunctions({ filters: { agent_address: [hidden.address] }, limit: 100 });
      expect(found.total).toBe(0);
    } finally {
      await env.DB.prepare('UPDATE agents SET is_public = 1 WHERE address = ?').bind(hidden.address).run();
    }
  });
});
