import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { DAILY_CLICKS_PER_AGENT } from '../../workers/registry/src/search/clicks.ts';
import { generateAgents } from './fixtures/corpus/generate.ts';
import { post, searchAgents } from './fixtures/search-client.ts';
import { accountWithKey, type SeedAgent } from './fixtures/search-seed.ts';
import { seedRegistry } from './fixtures/seeded-registry.ts';

const [first, second, third] = [...generateAgents(3, 21)];
const base = { tags: [], protocols: [], is_active: true, featured: false, recent_interactions: 0, geo_location: null };
const favourite: SeedAgent = {
  ...first!,
  ...base,
  name: 'Harbor Tide Forecast',
  description: 'Tide tables for sailors.',
  readme: '# Harbor Tide Forecast\n\nTide tables.',
};
const chosen: SeedAgent = {
  ...second!,
  ...base,
  name: 'Coastal Almanac',
  description: 'Tide and harbor forecasts for boats.',
  readme: '# Coastal Almanac\n\nMoon phases, tides.',
};
const other: SeedAgent = { ...third!, ...base, name: 'Inland Planner', description: 'Plans hikes.', readme: '# Inland Planner' };
const [fourth] = [...generateAgents(1, 22)];
const unlisted: SeedAgent = {
  ...fourth!,
  ...base,
  name: 'Quiet Ledger',
  description: 'Unlisted.',
  readme: '# Quiet Ledger',
  is_public: false,
};

let token: string;
const clickBody = (search_id: string, address: string, page_index = 0) => ({ search_id, address, page_index });

beforeAll(async () => {
  token = (await seedRegistry([favourite, chosen, other, unlisted])).token;
});

describe('POST /v1/search/agents/click', () => {
  it(`counts at most ${DAILY_CLICKS_PER_AGENT} clicks on one agent per account a day, however many searches it runs`, async () => {
    const clicker = await accountWithKey(env.DB);
    const outcomes: boolean[] = [];
    for (let i = 0; i <= DAILY_CLICKS_PER_AGENT; i++) {
      const { search_id } = await searchAgents(clicker.token, { search_text: 'harbor' });
      const response = await post('/v1/search/agents/click', clicker.token, clickBody(search_id, favourite.address));
      expect(response.status).toBe(200);
      outcomes.push(((await response.json()) as { duplicate: boolean }).duplicate);
    }
    expect(outcomes.filter((duplicate) => !duplicate)).toHaveLength(DAILY_CLICKS_PER_AGENT);
    expect(outcomes.at(-1)).toBe(true);
  });

  it('records a click once per search and agent', async () => {
    const { search_id } = await searchAgents(token, { search_text: 'inland' });
    const response = await post('/v1/search/agents/click', token, clickBody(search_id, other.address, 2));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'recorded', search_id, address: other.address, page_index: 2, duplicate: false });
    const again = await post('/v1/search/agents/click', token, clickBody(search_id, other.address, 2));
    expect(await again.json()).toMatchObject({ duplicate: true });
  });

  it('404 for a search_id never issued, and for an address nobody registered', async () => {
    const unknownSearch = await post('/v1/search/agents/click', token, clickBody(crypto.randomUUID(), other.address));
    expect(unknownSearch.status).toBe(404);
    expect(await unknownSearch.json()).toMatchObject({ error: { param: 'search_id' } });
    const { search_id } = await searchAgents(token, { search_text: 'inland' });
    const unknownAgent = await post('/v1/search/agents/click', token, clickBody(search_id, 'agent1qnotregistered'));
    expect(unknownAgent.status).toBe(404);
    expect(await unknownAgent.json()).toMatchObject({ error: { param: 'address' } });
  });

  // No search lists an unlisted agent (public: false), so no click on it is genuine: it is answered as a click on an
  // address nobody registered, for its owner too (clicks stored while unlisted would lift it once listed).
  it('404 for an unlisted agent, with the body an unregistered address gets', async () => {
    const stranger = await accountWithKey(env.DB);
    const { search_id } = await searchAgents(stranger.token, { search_text: 'inland' });
    const unlistedClick = await post('/v1/search/agents/click', stranger.token, clickBody(search_id, unlisted.address));
    expect(unlistedClick.status).toBe(404);
    const unregistered = await post('/v1/search/agents/click', stranger.token, clickBody(search_id, 'agent1qnotregistered'));
    const unlistedError = ((await unlistedClick.json()) as { error: { message: string } }).error;
    const unregisteredError = ((await unregistered.json()) as { error: { message: string } }).error;
    expect({ ...unlistedError, message: unlistedError.message.replace(unlisted.address, '…') }).toEqual({
      ...unregisteredError,
      message: unregisteredError.message.replace('agent1qnotregistered', '…'),
    });
    const { search_id: ownSearch } = await searchAgents(token, { search_text: 'inland' });
    expect((await post('/v1/search/agents/click', token, clickBody(ownSearch, unlisted.address))).status).toBe(404);
  });

  it.each([
    ['search_id', { address: other.address, page_index: 0 }],
    ['search_id', { search_id: 'nope', address: other.address, page_index: 0 }],
    ['page_index', { search_id: crypto.randomUUID(), address: other.address, page_index: -1 }],
    ['page_index', { search_id: crypto.randomUUID(), address: other.address, page_index: 'first' }],
    ['address', { search_id: crypto.randomUUID(), page_index: 0 }],
  ])('400 naming %s', async (param, body) => {
    const response = await post('/v1/search/agents/click', token, body);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { param: string } }).error.param).toBe(param);
  });

  it('needs a key with read permission', async () => {
    expect((await post('/v1/search/agents/click', null, clickBody(crypto.randomUUID(), other.address))).status).toBe(401);
    const writer = await accountWithKey(env.DB, ['write']);
    expect((await post('/v1/search/agents/click', writer.token, clickBody(crypto.randomUUID(), other.address))).status).toBe(403);
  });
});

describe('click feedback in ranking', () => {
  const order = async (body: Record<string, unknown>) => (await searchAgents(token, body)).agents.map((agent) => agent.name);

  it('an agent users keep choosing for a query rises for it, in default relevancy and with rerank', async () => {
    const query = { search_text: 'harbor forecast' };
    // Both agents fit the query; whichever the ranking puts second is the one users keep choosing.
    const initial = (await order(query)).slice(0, 2);
    expect([...initial].sort()).toEqual([chosen.name, favourite.name].sort());
    const [leader, runnerUp] = initial as [string, string];
    const picked = runnerUp === chosen.name ? chosen : favourite;
    const tideBefore = (await order({ search_text: 'tide' })).slice(0, 2);
    const before = await searchAgents(token, { ...query, limit: 1 });

    for (let i = 0; i < 8; i++) {
      const { search_id } = await searchAgents(token, { ...query, source: 'click-test' });
      expect((await post('/v1/search/agents/click', token, clickBody(search_id, picked.address))).status).toBe(200);
    }

    expect((await order(query)).slice(0, 2)).toEqual([runnerUp, leader]);
    expect((await order({ ...query, rerank: true })).slice(0, 2)).toEqual([runnerUp, leader]);
    // Clicks count for the query they were made under only.
    expect((await order({ search_text: 'tide' })).slice(0, 2)).toEqual(tideBefore);
    // A session that started before the clicks keeps its order, so its next page continues it consistently.
    const nextPage = await searchAgents(token, { ...query, limit: 1, offset: 1, search_id: before.search_id });
    expect([before.agents[0]!.name, nextPage.agents[0]!.name]).toEqual([leader, runnerUp]);
  });
});
